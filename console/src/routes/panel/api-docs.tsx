/** `/panel/api-docs` (admin): the management API reference, rendered from /api/openapi.json. */
import { createFileRoute, redirect } from '@tanstack/react-router'
import { loadNamespaces } from '@/i18n'
import { authStore, isAdmin } from '@/stores/auth-store'
import { ApiDocs } from '@/features/api-docs'

export const Route = createFileRoute('/panel/api-docs')({
  beforeLoad: () => {
    if (!isAdmin(authStore.getUser())) throw redirect({ to: '/panel' })
  },
  loader: () => loadNamespaces('api-docs'),
  component: ApiDocs,
})
