/**
 * Root-only routes of the console's import page (logic in ./import-apply.ts): check the target
 * for the dry-run report, start an import (same merge rule as `npm run import`), send its table
 * writes in batches (the page's progress bar), finish it (caches rebuilt from D1).
 */
import { Hono } from 'hono'
import { z } from 'zod'
import { rootRoute } from '../../middleware/access'
import { ok } from '../../lib/respond'
import { validate } from '../../lib/validate'
import { requireStepUp } from '../../accounts/step-up'
import type { HonoEnv } from '../../env'
import { applyBatch, checkTarget, finishImport, startImport } from './import-apply'

const id = z.number().int().positive().max(Number.MAX_SAFE_INTEGER)
const name = z.string().max(200)
const key = z.string().max(4096)
const identities = z.object({
  users: z.array(z.object({ id, username: name })).max(1_000_000),
  tokens: z.array(z.object({ id, key })).max(1_000_000),
  channels: z.array(z.object({ id, key: z.string().max(65_536) })).max(100_000),
  redemptions: z.array(z.object({ id, key })).max(1_000_000),
})
const targetSchema = z.object({ merge: z.boolean().default(false), identities })

const column = z
  .string()
  .regex(/^[a-z_][a-z0-9_]*$/, 'not a column name')
  .max(64)
const value = z.union([z.string().max(1_000_000), z.number().finite(), z.boolean(), z.null()])
const write = z.object({
  table: column,
  rows: z.array(z.record(column, value)).max(20_000),
  onConflict: z.union([
    z.literal('ignore'),
    z.object({ target: z.array(column).min(1).max(8), update: z.array(column).max(64) }),
    z.object({ match: z.array(column).min(1).max(8), idAbove: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER) }),
  ]),
  clearAbilitiesOf: z.array(id).max(100_000).optional(),
  derive: z.enum(['group-ratio', 'statistics-from-logs']).optional(),
})
const importId = z.string().regex(/^[A-Za-z0-9]{24}$/, 'not an import id')
const batchSchema = z.object({ import_id: importId, writes: z.array(write).min(1).max(50) })

export const importRoutes = new Hono<HonoEnv>()
  .post('/import/check', rootRoute, validate('json', targetSchema), async (c) => {
    const { merge, identities } = c.req.valid('json')
    return ok(c, await checkTarget(c.env, identities, merge))
  })
  .post('/import/start', rootRoute, requireStepUp, validate('json', targetSchema), async (c) => {
    const { merge, identities } = c.req.valid('json')
    return ok(c, await startImport(c.env, c.get('user')!.id, identities, merge))
  })
  .post('/import/batch', rootRoute, validate('json', batchSchema), async (c) => {
    const body = c.req.valid('json')
    return ok(c, await applyBatch(c.env, c.get('user')!.id, body.import_id, body.writes))
  })
  .post('/import/finish', rootRoute, validate('json', z.object({ import_id: importId })), async (c) => {
    await finishImport(c.env, c.get('user')!.id, c.req.valid('json').import_id)
    return ok(c)
  })
