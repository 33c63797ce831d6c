/** `/panel/topup`: balance, online top-up, redemption-code top-up and the invite link; `?trade_no=` after a gateway's page. */
import { createFileRoute } from '@tanstack/react-router'
import { loadNamespaces } from '@/i18n'
import { TopUp } from '@/features/topup'
import { paymentReturnSearch } from '@/features/topup/schema'

export const Route = createFileRoute('/panel/topup')({ validateSearch: paymentReturnSearch, loader: () => loadNamespaces('topup', 'payments'), component: TopUp })
