/** The URL search schema of both task pages (bad values are dropped, never an error page). */
import { z } from 'zod'

const text = (re: RegExp) => z.string().trim().regex(re).optional().catch(undefined)
const seconds = z.number().int().min(0).optional().catch(undefined)

export const taskSearchSchema = z.object({
  p: z.number().int().min(1).optional().catch(undefined),
  page_size: z.number().int().min(1).max(100).optional().catch(undefined),
  scope: z.enum(['all', 'self']).optional().catch(undefined),
  platform: z.enum(['suno', 'kling']).optional().catch(undefined),
  status: text(/^[A-Z_]{1,20}$/),
  action: text(/^[A-Za-z0-9_]{1,40}$/),
  task_id: text(/^\d{1,15}$/),
  username: z.string().trim().min(1).max(64).optional().catch(undefined),
  channel_id: z.number().int().min(1).optional().catch(undefined),
  start_timestamp: seconds,
  end_timestamp: seconds,
})
