/** `/panel/audit` (administrators): the audit trail; paging and every filter live in the URL. */
import { createFileRoute, redirect } from '@tanstack/react-router'
import { z } from 'zod'
import { loadNamespaces } from '@/i18n'
import { authStore, isAdmin } from '@/stores/auth-store'
import { Audit } from '@/features/audit'

const text = (max: number) => z.string().trim().min(1).max(max).optional().catch(undefined)
/** An id-like filter: the router reads `?target_id=12` as the number 12, the input gives the string. */
const idText = (max: number) =>
  z
    .preprocess((v) => (typeof v === 'number' ? String(v) : v), z.string().trim().min(1).max(max))
    .optional()
    .catch(undefined)
const seconds = z.number().int().min(0).optional().catch(undefined)

export const Route = createFileRoute('/panel/audit')({
  validateSearch: z.object({
    p: z.number().int().min(1).optional().catch(undefined),
    page_size: z.number().int().min(1).max(100).optional().catch(undefined),
    actor: idText(64),
    action: text(64),
    target_type: text(40),
    target_id: idText(200),
    start_timestamp: seconds,
    end_timestamp: seconds,
  }),
  beforeLoad: () => {
    if (!isAdmin(authStore.getUser())) throw redirect({ to: '/panel' })
  },
  loader: () => loadNamespaces('audit'),
  component: Audit,
})
