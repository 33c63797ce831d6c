/** `/panel/analytics` (admins; others land on the dashboard), with the period in the URL like the dashboard. */
import { createFileRoute, redirect } from '@tanstack/react-router'
import { loadNamespaces } from '@/i18n'
import { isAdmin, authStore } from '@/stores/auth-store'
import { Analytics } from '@/features/analytics'
import { rangeSearchSchema } from '@/features/dashboard/range'

export const Route = createFileRoute('/panel/analytics')({
  validateSearch: rangeSearchSchema,
  beforeLoad: () => {
    if (!isAdmin(authStore.getUser())) throw redirect({ to: '/panel/dashboard' })
  },
  loader: () => loadNamespaces('analytics', 'dashboard'),
  component: Analytics,
})
