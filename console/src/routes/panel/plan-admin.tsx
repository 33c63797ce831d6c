/** `/panel/plan-admin` (admin): create, edit, publish, delete and grant subscription plans. */
import { createFileRoute, redirect } from '@tanstack/react-router'
import { loadNamespaces } from '@/i18n'
import { authStore, isAdmin } from '@/stores/auth-store'
import { PlanAdmin } from '@/features/plans/admin'

export const Route = createFileRoute('/panel/plan-admin')({
  beforeLoad: () => {
    if (!isAdmin(authStore.getUser())) throw redirect({ to: '/panel' })
  },
  loader: () => loadNamespaces('plans'),
  component: PlanAdmin,
})
