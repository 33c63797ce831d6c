/** `/register?aff=<invite code>`. */
import { createFileRoute } from '@tanstack/react-router'
import { z } from 'zod'
import { loadNamespaces } from '@/i18n'
import { Register } from '@/features/auth/register'

export const Route = createFileRoute('/_public/register')({
  validateSearch: z.object({ aff: z.string().optional().catch(undefined) }),
  loader: () => loadNamespaces('auth', 'oauth'),
  component: Register,
})
