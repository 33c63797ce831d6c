/** `/panel/dashboard?days=7|14|30` or `?from=YYYY-MM-DD&to=YYYY-MM-DD`. */
import { createFileRoute } from '@tanstack/react-router'
import { loadNamespaces } from '@/i18n'
import { Dashboard } from '@/features/dashboard'
import { rangeSearchSchema } from '@/features/dashboard/range'

export const Route = createFileRoute('/panel/dashboard')({
  validateSearch: rangeSearchSchema,
  loader: () => loadNamespaces('dashboard'),
  component: Dashboard,
})
