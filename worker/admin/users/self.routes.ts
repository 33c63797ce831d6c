/**
 * The signed-in user's own account: profile read/update, personal access token (generate/reset,
 * shown once, stored hashed), the invite code, and unbinding a sign-in method (binding happens in
 * the OAuth callbacks and admin/mail/mail.routes.ts).
 */
import { Hono } from 'hono'
import { eq } from 'drizzle-orm'
import { createDb } from '../../db/client'
import { users } from '../../db/schema'
import { userRoute } from '../../middleware/access'
import { badRequest, forbidden, notFound } from '../../lib/errors'
import { hashPassword, randomString, sha256Hex } from '../../lib/crypto'
import { verifyStoredPassword } from '../../accounts/legacy-password'
import { ok } from '../../lib/respond'
import { validate } from '../../lib/validate'
import type { HonoEnv } from '../../env'
import { updateSelfSchema } from '../auth/auth.schema'
import { BINDING_TYPES, unbindFromUser } from '../oauth/accounts'
import { createSession, revokeCredentials } from '../../accounts/session'
import { notifyPasswordChanged } from '../../mail/password-notice'
import { requireXsrf } from '../oauth/require-xsrf'
import { getUser, profileOf } from '../../accounts/users'
import { usernameTaken } from './users.service'
import { conflict } from '../../lib/errors'
import { z } from 'zod'

const unbindSchema = z.object({ type: z.enum(BINDING_TYPES, 'must be one of github, oidc, lark, wechat, email') })

export const selfRoutes = new Hono<HonoEnv>()
  .get('/user/self', userRoute, async (c) => {
    const user = await getUser(c.env, c.get('user')!.id)
    if (!user) throw notFound('User not found')
    return ok(c, profileOf(user))
  })
  .put('/user/self', userRoute, validate('json', updateSelfSchema), async (c) => {
    const me = c.get('user')!
    const body = c.req.valid('json')
    const current = await getUser(c.env, me.id)
    if (!current) throw notFound('User not found')
    const patch: Partial<typeof users.$inferInsert> = {}
    if (body.username !== undefined && body.username !== current.username) {
      if (await usernameTaken(c.env, body.username, me.id)) throw conflict('Username already exists')
      patch.username = body.username
    }
    if (body.display_name !== undefined) patch.displayName = body.display_name
    if (body.password !== undefined) {
      // An account without a password (OAuth-only) gets one only from a signed-in browser, never
      // through an access token that may have leaked.
      if (!current.password && c.get('authMethod') !== 'session') {
        throw forbidden('Sign in with your account in the browser to set a password')
      }
      if (current.password && !(await verifyStoredPassword(body.original_password ?? '', current.password))) {
        throw badRequest('original_password: the current password is wrong', {
          fields: { original_password: 'the current password is wrong' },
        })
      }
      patch.password = await hashPassword(body.password)
    }
    if (Object.keys(patch).length > 0) {
      await createDb(c.env.DB).update(users).set(patch).where(eq(users.id, me.id))
    }
    if (patch.password) {
      // A new password ends every other session, the access token and reset links; this browser gets a fresh session.
      await revokeCredentials(c.env, me.id)
      if (c.get('authMethod') === 'session') await createSession(c, me.id)
    }
    const updated = (await getUser(c.env, me.id))!
    if (patch.password) await notifyPasswordChanged(c.env, updated, 'changed')
    return ok(c, profileOf(updated), 'Updated')
  })
  // Rotates the token: a state-changing GET (one-hub path), so the XSRF header is required.
  .get('/user/token', userRoute, requireXsrf, async (c) => {
    const token = randomString(32)
    await createDb(c.env.DB)
      .update(users)
      .set({ accessToken: await sha256Hex(token) })
      .where(eq(users.id, c.get('user')!.id))
    return ok(c, token, 'Access token generated; it is shown only once')
  })
  .get('/user/aff', userRoute, async (c) => {
    const user = await getUser(c.env, c.get('user')!.id)
    if (!user) throw notFound('User not found')
    return ok(c, user.affCode)
  })
  .post('/user/unbind', userRoute, validate('json', unbindSchema), async (c) => {
    const user = await unbindFromUser(c.env, c.get('user')!.id, c.req.valid('json').type)
    return ok(c, profileOf(user), 'Unbound')
  })
