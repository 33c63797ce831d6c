/** `/panel/plans` (every user): the published subscription plans, buying one, and the user's own subscriptions; `?trade_no=` after a gateway's page. */
import { createFileRoute } from '@tanstack/react-router'
import { z } from 'zod'
import { loadNamespaces } from '@/i18n'
import { Plans } from '@/features/plans'

const searchSchema = z.object({
  trade_no: z
    .string()
    .regex(/^\w{1,64}$/)
    .optional()
    .catch(undefined),
})

export const Route = createFileRoute('/panel/plans')({ validateSearch: searchSchema, loader: () => loadNamespaces('plans', 'topup'), component: Plans })
