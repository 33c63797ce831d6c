/** `/panel/notify` (root): alert channels, their events, test notices and delivery logs. */
import { createFileRoute, redirect } from '@tanstack/react-router'
import { loadNamespaces } from '@/i18n'
import { authStore, isRoot } from '@/stores/auth-store'
import { Notify } from '@/features/notify'

export const Route = createFileRoute('/panel/notify')({
  beforeLoad: () => {
    if (!isRoot(authStore.getUser())) throw redirect({ to: '/panel' })
  },
  loader: () => loadNamespaces('notify'),
  component: Notify,
})
