/** `/setup`: first-run root account; only reachable while the system is not set up. `?code=` is the setup code printed by `npm start`. */
import { createFileRoute, redirect } from '@tanstack/react-router'
import { z } from 'zod'
import { loadNamespaces } from '@/i18n'
import { Setup } from '@/features/auth/setup'
import { siteInfoQueryOptions } from '@/features/site/api'

export const Route = createFileRoute('/_public/setup')({
  validateSearch: z.object({ code: z.string().max(200).optional().catch(undefined) }),
  beforeLoad: async ({ context }) => {
    const site = await context.queryClient.ensureQueryData(siteInfoQueryOptions)
    if (!site.setup_needed) throw redirect({ to: '/' })
  },
  loader: () => loadNamespaces('auth'),
  component: Setup,
})
