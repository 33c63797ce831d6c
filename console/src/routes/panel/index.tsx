/** `/panel`: lands on the first console page that exists, in the order dashboard → profile. */
import { Navigate, createFileRoute, useRouter } from '@tanstack/react-router'

const LANDING_ORDER = ['/panel/dashboard', '/panel/profile'] as const

function PanelIndex() {
  const router = useRouter()
  const target = LANDING_ORDER.find((path) => path in router.routesByPath) ?? '/panel/profile'
  return <Navigate to={target as '/panel/profile'} replace />
}

export const Route = createFileRoute('/panel/')({ component: PanelIndex })
