/** `/panel/plans` (every user): the published subscription plans and the user's own subscriptions. */
import { createFileRoute } from '@tanstack/react-router'
import { loadNamespaces } from '@/i18n'
import { Plans } from '@/features/plans'

export const Route = createFileRoute('/panel/plans')({ loader: () => loadNamespaces('plans'), component: Plans })
