/**
 * Console entry: creates the QueryClient and the router, installs the deploy guard (lib/deploy-guard.ts),
 * then mounts the providers (theme, i18n, React Query, tooltips, router, toasts, the new-version notice).
 */
import { StrictMode, Suspense } from 'react'
import { createRoot } from 'react-dom/client'
import { QueryClientProvider } from '@tanstack/react-query'
import { RouterProvider, createRouter } from '@tanstack/react-router'
import { I18nextProvider } from 'react-i18next'
import { NewVersionNotice } from '@/components/new-version-notice'
import { Toaster } from '@/components/ui/sonner'
import { TooltipProvider } from '@/components/ui/tooltip'
import { ThemeProvider } from '@/context/theme-provider'
import i18n from '@/i18n'
import { installDeployGuard, reloadForNewVersion } from '@/lib/deploy-guard'
import { setSecondFactorSetupHandler, setUnauthorizedHandler } from '@/lib/handle-error'
import { notify } from '@/lib/notify'
import { createQueryClient } from '@/lib/query-client'
import { routeTree } from './routeTree.gen'
import './styles/index.css'
import { BASE_PATH } from '@/lib/base-path'

const queryClient = createQueryClient()

const router = createRouter({
  routeTree,
  context: { queryClient },
  // The prefix the Worker serves the console under (BASE_PATH, read from <base href> at runtime).
  basepath: BASE_PATH || '/',
  defaultPreload: 'intent',
  // React Query decides when data is stale, not the router.
  defaultPreloadStaleTime: 0,
  defaultPendingMs: 150,
})

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router
  }
}

installDeployGuard(router, (err) => {
  if (!reloadForNewVersion()) notify.error(i18n.t('common:errors.chunkLoad', { url: err.url }))
})

setUnauthorizedHandler(() => {
  if (router.state.location.pathname !== '/login') void router.navigate({ to: '/login' })
})

setSecondFactorSetupHandler(() => {
  if (router.state.location.pathname !== '/panel/profile') void router.navigate({ to: '/panel/profile' })
})

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ThemeProvider>
      <I18nextProvider i18n={i18n}>
        <QueryClientProvider client={queryClient}>
          <TooltipProvider>
            <Suspense fallback={null}>
              <RouterProvider router={router} />
              <Toaster />
              <NewVersionNotice />
            </Suspense>
          </TooltipProvider>
        </QueryClientProvider>
      </I18nextProvider>
    </ThemeProvider>
  </StrictMode>
)
