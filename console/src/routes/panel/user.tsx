/** `/panel/user` (admin): the users list; page, size, sort and search live in the URL. */
import { createFileRoute, redirect } from '@tanstack/react-router'
import { z } from 'zod'
import { loadNamespaces } from '@/i18n'
import { authStore, isAdmin } from '@/stores/auth-store'
import { Users } from '@/features/users'

const searchSchema = z.object({
  p: z.number().int().min(1).optional().catch(undefined),
  page_size: z.number().int().min(1).max(100).optional().catch(undefined),
  order: z.string().max(40).optional().catch(undefined),
  keyword: z.string().max(200).optional().catch(undefined),
})

export const Route = createFileRoute('/panel/user')({
  validateSearch: searchSchema,
  beforeLoad: () => {
    if (!isAdmin(authStore.getUser())) throw redirect({ to: '/panel' })
  },
  loader: () => loadNamespaces('users', 'plans'),
  component: Users,
})
