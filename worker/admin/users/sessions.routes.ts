/**
 * The signed-in user's sessions and step-up: list them (device, IP, created, last seen, which is
 * this one), revoke one, sign out everywhere (optionally keeping this session), revoke the personal
 * access token, and confirm the password for sensitive actions (POST /api/user/step_up,
 * ../auth/step-up.ts). Only the user's own sessions are ever read or deleted; a session is named by
 * a prefix of its stored hash, never by its cookie.
 */
import { Hono } from 'hono'
import { and, eq, gt, ne } from 'drizzle-orm'
import { z } from 'zod'
import { createDb } from '../../db/client'
import { sessions, users } from '../../db/schema'
import { userRoute } from '../../middleware/access'
import { notFound } from '../../lib/errors'
import { nowSeconds } from '../../lib/time'
import { ok } from '../../lib/respond'
import { validate } from '../../lib/validate'
import type { HonoEnv } from '../../env'
import { SESSION_PUBLIC_ID_LENGTH, type SessionsList, type SessionView, type StepUpResult } from '../../../shared/contract/sessions'
import { deviceSummary } from '../../accounts/device'
import { confirmStepUp, stepUpStatus } from '../../accounts/step-up'
import { destroySession } from '../../accounts/session'
import { assertionSchema } from '../passkeys/passkeys.schema'

const publicId = (storedId: string) => storedId.slice(0, SESSION_PUBLIC_ID_LENGTH)

const sessionIdParam = z.object({ id: z.string().regex(new RegExp(`^[0-9a-f]{${SESSION_PUBLIC_ID_LENGTH}}$`), 'must be a session id') })
const revokeAllSchema = z.object({ keep_current: z.boolean().default(true) })
const stepUpSchema = z
  .object({ password: z.string().min(1).max(128).optional(), code: z.string().trim().min(1).max(64).optional(), passkey: assertionSchema.optional() })
  .refine((b) => [b.password, b.code, b.passkey].filter((v) => v !== undefined).length === 1, { message: 'give one of password, code or passkey', path: ['password'] })

async function liveSessions(env: Env, userId: number) {
  return createDb(env.DB)
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, nowSeconds())))
}

export const sessionRoutes = new Hono<HonoEnv>()
  .get('/user/sessions', userRoute, async (c) => {
    const me = c.get('user')!
    const current = c.get('sessionId')
    const rows = await liveSessions(c.env, me.id)
    const [owner] = await createDb(c.env.DB).select({ accessToken: users.accessToken }).from(users).where(eq(users.id, me.id))
    const list: SessionView[] = rows
      .map((s) => ({
        id: publicId(s.id),
        device: deviceSummary(s.userAgent),
        ip: s.ip,
        created_at: s.createdAt,
        last_seen_at: s.lastSeenAt,
        current: s.id === current,
      }))
      .sort((a, b) => Number(b.current) - Number(a.current) || b.last_seen_at - a.last_seen_at || b.created_at - a.created_at)
    return ok(c, { sessions: list, access_token: Boolean(owner?.accessToken) } satisfies SessionsList)
  })
  .delete('/user/sessions/:id', userRoute, validate('param', sessionIdParam), async (c) => {
    const me = c.get('user')!
    const target = (await liveSessions(c.env, me.id)).find((s) => publicId(s.id) === c.req.valid('param').id)
    if (!target) throw notFound('Session not found')
    if (target.id === c.get('sessionId')) {
      await destroySession(c)
    } else {
      await createDb(c.env.DB)
        .delete(sessions)
        .where(and(eq(sessions.id, target.id), eq(sessions.userId, me.id)))
    }
    return ok(c, null, 'Session signed out')
  })
  .post('/user/sessions/revoke_all', userRoute, validate('json', revokeAllSchema), async (c) => {
    const me = c.get('user')!
    const current = c.get('sessionId')
    const keep = c.req.valid('json').keep_current && current !== undefined
    const db = createDb(c.env.DB)
    if (keep) await db.delete(sessions).where(and(eq(sessions.userId, me.id), ne(sessions.id, current)))
    else {
      await db.delete(sessions).where(eq(sessions.userId, me.id))
      if (current) await destroySession(c)
    }
    return ok(c, { kept_current: keep }, 'Signed out everywhere')
  })
  .delete('/user/token', userRoute, async (c) => {
    await createDb(c.env.DB)
      .update(users)
      .set({ accessToken: null })
      .where(eq(users.id, c.get('user')!.id))
    return ok(c, null, 'Access token revoked')
  })
  .get('/user/step_up', userRoute, async (c) => ok(c, await stepUpStatus(c)))
  .post('/user/step_up', userRoute, validate('json', stepUpSchema), async (c) => {
    const until = await confirmStepUp(c, c.req.valid('json'))
    return ok(c, { until } satisfies StepUpResult, 'Confirmed')
  })
