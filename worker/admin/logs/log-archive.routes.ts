/**
 * Root's log budget and archive: GET /api/log/retention (the table against LogMaxRows and the D1
 * size), POST /api/log/retention/run (one retention run now: rows archived and deleted),
 * GET /api/log/archive (the archived objects: time range, rows, size) and
 * GET /api/log/archive/download?key= (one object, gzip NDJSON, as stored).
 */
import { Hono } from 'hono'
import { z } from 'zod'
import { rootRoute } from '../../middleware/access'
import { notFound } from '../../lib/errors'
import { ok } from '../../lib/respond'
import { validate } from '../../lib/validate'
import type { HonoEnv } from '../../env'
import { offset } from '../../lib/paging'
import { OBJECT_KEY, isListed, listArchive } from '../../logs/log-archive'
import { runRetention, retentionStatus } from '../../logs/log-retention'

const archiveQuery = z.object({
  p: z.coerce.number().int().min(1).max(1_000_000).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(20),
  start_timestamp: z.coerce.number().int().min(0).max(1e11).optional(),
  end_timestamp: z.coerce.number().int().min(0).max(1e11).optional(),
})

export const logArchiveRoutes = new Hono<HonoEnv>()
  .get('/log/retention', rootRoute, async (c) => ok(c, await retentionStatus(c.env)))
  .post('/log/retention/run', rootRoute, async (c) => {
    const result = await runRetention(c.env)
    return ok(c, result, `Archived ${result.archived}, deleted ${result.deleted} log rows`)
  })
  .get('/log/archive', rootRoute, validate('query', archiveQuery), async (c) => {
    const q = c.req.valid('query')
    const list = await listArchive(c.env.DB, { from: q.start_timestamp, to: q.end_timestamp, limit: q.page_size, offset: offset(q) })
    return ok(c, { enabled: Boolean(c.env.LOG_ARCHIVE), data: list.objects, page: q.p, size: q.page_size, total_count: list.total.objects, total: list.total })
  })
  .get('/log/archive/download', rootRoute, validate('query', z.object({ key: z.string().max(200).regex(OBJECT_KEY, 'is not an archive object key') })), async (c) => {
    const { key } = c.req.valid('query')
    const bucket = c.env.LOG_ARCHIVE as R2Bucket | undefined
    const obj = bucket && (await isListed(c.env.DB, key)) ? await bucket.get(key) : null
    if (!obj) throw notFound('Archive object not found')
    return new Response(obj.body, {
      headers: {
        'content-type': 'application/gzip',
        'content-length': String(obj.size),
        'content-disposition': `attachment; filename="${key.slice(5).replaceAll('/', '-')}"`,
      },
    })
  })
