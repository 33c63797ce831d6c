/** `/panel/topup`: balance, redemption-code top-up and the invite link. */
import { createFileRoute } from '@tanstack/react-router'
import { loadNamespaces } from '@/i18n'
import { TopUp } from '@/features/topup'

export const Route = createFileRoute('/panel/topup')({ loader: () => loadNamespaces('topup'), component: TopUp })
