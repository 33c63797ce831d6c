/** `/panel/channel` (admin): channels; page, size, sort, filters and the by-tag view live in the URL. */
import { createFileRoute, redirect } from '@tanstack/react-router'
import { z } from 'zod'
import { loadNamespaces } from '@/i18n'
import { authStore, isAdmin } from '@/stores/auth-store'
import { Channels } from '@/features/channels'

const text = z.string().trim().max(200).optional().catch(undefined)

const searchSchema = z.object({
  p: z.number().int().min(1).optional().catch(undefined),
  page_size: z.number().int().min(1).max(100).optional().catch(undefined),
  order: z.string().max(40).optional().catch(undefined),
  name: text,
  type: z.number().int().optional().catch(undefined),
  status: z.number().int().min(1).max(4).optional().catch(undefined),
  group: text,
  model: text,
  tag: text,
  view: z.literal('tag').optional().catch(undefined),
  /** Opens the create sheet: blank, or prefilled for the local mock upstream (dashboard's empty state). */
  create: z.enum(['blank', 'local-mock']).optional().catch(undefined),
})

export const Route = createFileRoute('/panel/channel')({
  validateSearch: searchSchema,
  beforeLoad: () => {
    if (!isAdmin(authStore.getUser())) throw redirect({ to: '/panel' })
  },
  loader: () => loadNamespaces('channels'),
  component: Channels,
})
