/** `/playground`: the chat playground in the public layout, for signed-in users (others, and anyone who signs out here, go to /login). */
import { Navigate, createFileRoute, redirect } from '@tanstack/react-router'
import { loadNamespaces } from '@/i18n'
import { authStore, useAuthUser } from '@/stores/auth-store'
import { Playground } from '@/features/playground'

function PublicPlayground() {
  const user = useAuthUser()
  if (!user) return <Navigate to="/login" replace />
  return <Playground variant="public" />
}

export const Route = createFileRoute('/_public/playground')({
  beforeLoad: () => {
    if (!authStore.getUser()) throw redirect({ to: '/login' })
  },
  loader: () => loadNamespaces('playground', 'table'),
  component: PublicPlayground,
})
