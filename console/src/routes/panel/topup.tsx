/** `/panel/topup`: balance, online top-up, redemption-code top-up and the invite link; `?trade_no=` after a gateway's page. */
import { createFileRoute } from '@tanstack/react-router'
import { z } from 'zod'
import { loadNamespaces } from '@/i18n'
import { TopUp } from '@/features/topup'

const searchSchema = z.object({
  trade_no: z
    .string()
    .regex(/^\w{1,64}$/)
    .optional()
    .catch(undefined),
})

export const Route = createFileRoute('/panel/topup')({ validateSearch: searchSchema, loader: () => loadNamespaces('topup', 'payments'), component: TopUp })
