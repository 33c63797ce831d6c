/** `/panel/plans` (every user): the published subscription plans, buying one, and the user's own subscriptions; `?trade_no=` after a gateway's page. */
import { createFileRoute } from '@tanstack/react-router'
import { loadNamespaces } from '@/i18n'
import { Plans } from '@/features/plans'
import { paymentReturnSearch } from '@/features/topup/schema'

export const Route = createFileRoute('/panel/plans')({ validateSearch: paymentReturnSearch, loader: () => loadNamespaces('plans', 'topup'), component: Plans })
