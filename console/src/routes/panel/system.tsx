/** `/panel/system` (root only; the API refuses anyone else with 403): the system page. */
import { createFileRoute, redirect } from '@tanstack/react-router'
import { loadNamespaces } from '@/i18n'
import { authStore, isRoot } from '@/stores/auth-store'
import { System } from '@/features/system'

export const Route = createFileRoute('/panel/system')({
  beforeLoad: () => {
    if (!isRoot(authStore.getUser())) throw redirect({ to: '/panel' })
  },
  loader: () => loadNamespaces('system'),
  component: System,
})
