/** `/panel/payment` (admin): orders and payment gateways; the tab, page, sort and order filters live in the URL. */
import { createFileRoute, redirect } from '@tanstack/react-router'
import { z } from 'zod'
import { loadNamespaces } from '@/i18n'
import { authStore, isAdmin } from '@/stores/auth-store'
import { Payments } from '@/features/payments'

const id = z.number().int().min(1).optional().catch(undefined)
const searchSchema = z.object({
  tab: z.enum(['orders', 'gateways']).optional().catch(undefined),
  p: id,
  page_size: z.number().int().min(1).max(100).optional().catch(undefined),
  order: z.string().max(40).optional().catch(undefined),
  status: z.enum(['pending', 'success', 'failed', 'closed', 'refunded']).optional().catch(undefined),
  gateway_id: id,
  user_id: id,
  trade_no: z.string().max(64).optional().catch(undefined),
  gateway_no: z.string().max(100).optional().catch(undefined),
  start_timestamp: z.number().int().min(0).optional().catch(undefined),
  end_timestamp: z.number().int().min(0).optional().catch(undefined),
})

export const Route = createFileRoute('/panel/payment')({
  validateSearch: searchSchema,
  beforeLoad: () => {
    if (!isAdmin(authStore.getUser())) throw redirect({ to: '/panel' })
  },
  loader: () => loadNamespaces('payments'),
  component: Payments,
})
