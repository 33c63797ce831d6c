/** `/panel/model-routing` (root): the weighted routes and cross-model fallbacks editor. */
import { createFileRoute, redirect } from '@tanstack/react-router'
import { loadNamespaces } from '@/i18n'
import { authStore, isAdmin } from '@/stores/auth-store'
import { ModelRouting } from '@/features/model-routing'

export const Route = createFileRoute('/panel/model-routing')({
  beforeLoad: () => {
    if (!isAdmin(authStore.getUser())) throw redirect({ to: '/panel' })
  },
  loader: () => loadNamespaces('model-routing', 'settings'),
  component: ModelRouting,
})
