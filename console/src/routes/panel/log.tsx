/** `/panel/log` (everyone; admins may see all logs): paging and every filter live in the URL. */
import { createFileRoute } from '@tanstack/react-router'
import { z } from 'zod'
import { loadNamespaces } from '@/i18n'
import { Logs } from '@/features/logs'

const text = (max: number) => z.string().trim().min(1).max(max).optional().catch(undefined)
const seconds = z.number().int().min(0).optional().catch(undefined)

const searchSchema = z.object({
  p: z.number().int().min(1).optional().catch(undefined),
  page_size: z.number().int().min(1).max(100).optional().catch(undefined),
  scope: z.enum(['all', 'self']).optional().catch(undefined),
  type: z.number().int().min(1).max(5).optional().catch(undefined),
  token_name: text(100),
  model_name: text(200),
  username: text(64),
  channel_id: z.number().int().min(1).optional().catch(undefined),
  start_timestamp: seconds,
  end_timestamp: seconds,
})

export const Route = createFileRoute('/panel/log')({
  validateSearch: searchSchema,
  loader: () => loadNamespaces('logs'),
  component: Logs,
})
