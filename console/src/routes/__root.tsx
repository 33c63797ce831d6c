/**
 * Root route: router context (`queryClient`), site info loaded before any page (and the redirect
 * to /setup while the system is not set up), the route progress bar, scroll-to-top on navigation,
 * the error page, the 404 redirect and the app-wide dialogs (manual copy, step-up).
 */
import { useEffect } from 'react'
import type { QueryClient } from '@tanstack/react-query'
import { Navigate, Outlet, createRootRouteWithContext, redirect, useRouterState } from '@tanstack/react-router'
import { CopyFallbackDialog } from '@/components/copy-fallback-dialog'
import { RouteProgress } from '@/components/layout/route-progress'
import { StepUpDialog } from '@/components/step-up-dialog'
import { GeneralError } from '@/features/errors/general-error'
import { siteInfoQueryOptions } from '@/features/site/api'

export interface RouterContext {
  queryClient: QueryClient
}

export const Route = createRootRouteWithContext<RouterContext>()({
  beforeLoad: async ({ context, location }) => {
    const site = await context.queryClient.ensureQueryData(siteInfoQueryOptions)
    if (site.setup_needed && location.pathname !== '/setup') throw redirect({ to: '/setup' })
  },
  component: Root,
  errorComponent: GeneralError,
  notFoundComponent: () => <Navigate to="/404" replace />,
})

function Root() {
  const pathname = useRouterState({ select: (s) => s.location.pathname })
  useEffect(() => {
    window.scrollTo({ top: 0, behavior: 'smooth' })
  }, [pathname])
  return (
    <>
      <RouteProgress />
      <Outlet />
      <CopyFallbackDialog />
      <StepUpDialog />
    </>
  )
}
