/** `/panel/pricing` (admin): prices in single or merged view and user groups; list state in the URL. */
import { createFileRoute, redirect } from '@tanstack/react-router'
import { z } from 'zod'
import { loadNamespaces } from '@/i18n'
import { authStore, isAdmin } from '@/stores/auth-store'
import { Pricing } from '@/features/pricing'

const searchSchema = z.object({
  tab: z.enum(['single', 'merged', 'groups']).optional().catch(undefined),
  p: z.number().int().min(1).optional().catch(undefined),
  page_size: z.number().int().min(1).max(100).optional().catch(undefined),
  order: z.string().max(40).optional().catch(undefined),
  keyword: z.string().max(200).optional().catch(undefined),
  channel_type: z.number().int().min(0).optional().catch(undefined),
  type: z.enum(['tokens', 'times']).optional().catch(undefined),
})

export const Route = createFileRoute('/panel/pricing')({
  validateSearch: searchSchema,
  beforeLoad: () => {
    if (!isAdmin(authStore.getUser())) throw redirect({ to: '/panel' })
  },
  loader: () => loadNamespaces('pricing', 'table'),
  component: Pricing,
})
