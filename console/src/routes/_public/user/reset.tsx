/** `/user/reset?email=…&token=…`: confirm an emailed password reset. */
import { createFileRoute } from '@tanstack/react-router'
import { z } from 'zod'
import { loadNamespaces } from '@/i18n'
import { ResetConfirm } from '@/features/auth/reset-confirm'

export const Route = createFileRoute('/_public/user/reset')({
  validateSearch: z.object({
    email: z.string().optional().catch(undefined),
    token: z.string().optional().catch(undefined),
  }),
  loader: () => loadNamespaces('auth'),
  component: ResetConfirm,
})
