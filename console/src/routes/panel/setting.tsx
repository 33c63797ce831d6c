/** `/panel/setting?tab=operation|system|other` (root only; other admins see why). */
import { createFileRoute } from '@tanstack/react-router'
import { z } from 'zod'
import { loadNamespaces } from '@/i18n'
import { Settings } from '@/features/settings'

export const Route = createFileRoute('/panel/setting')({
  validateSearch: z.object({ tab: z.enum(['operation', 'system', 'other']).optional().catch(undefined) }),
  loader: () => loadNamespaces('settings'),
  component: Settings,
})
