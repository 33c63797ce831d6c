/** /api/user (admin): list/search, detail, create, edit, manage actions, quota changes (never an admin raising their own), delete. */
import { Hono } from 'hono'
import { adminRoute } from '../../middleware/access'
import { ok } from '../../lib/respond'
import { forbidden } from '../../lib/errors'
import { idParam, validate } from '../../lib/validate'
import { assertStepUp } from '../../accounts/step-up'
import type { HonoEnv, SessionUser } from '../../env'
import { listQuery } from '../../lib/paging'
import { assertCanManage, adjustQuota, listUsers, manageUser, targetUser, updateUser, userRow, deleteUser } from './users.admin'
import { createUserSchema, manageSchema, quotaSchema, updateUserSchema } from './users.schema'
import { createUser } from './users.service'
import { assertGroup } from '../groups/groups.service'
import { walletOf } from '../../wallet/wallet-client'
import { ROLE, LOG_TYPE } from '../../../shared/contract/enums'
import type { QuotaChangeResult } from '../../../shared/contract/users'

/** The balance the wallet holds now (D1 may lag behind it). */
async function currentQuota(env: Env, id: number): Promise<number> {
  const fromWallet = (await walletOf(env, id).balance({ userId: id }))?.quota
  return fromWallet ?? (await targetUser(env, { id }).catch(() => undefined))?.quota ?? 0
}

/** Administrators below root never add money to their own balance (lowering it is allowed). */
function assertNotRaisingOwnQuota(actor: SessionUser, targetId: number, delta: number) {
  if (actor.role < ROLE.ROOT && targetId === actor.id && delta > 0) throw forbidden('Only root can raise your own quota')
}

export const userAdminRoutes = new Hono<HonoEnv>()
  .get('/user/', adminRoute, validate('query', listQuery), async (c) => ok(c, await listUsers(c.env, c.req.valid('query'))))
  .get('/user/:id{[0-9]+}', adminRoute, validate('param', idParam), async (c) => ok(c, userRow(await targetUser(c.env, { id: c.req.valid('param').id }))))
  .post('/user/', adminRoute, validate('json', createUserSchema), async (c) => {
    const body = c.req.valid('json')
    const actor = c.get('user')!
    await assertGroup(c.env, body.group)
    const user = await createUser(c.env, {
      username: body.username,
      password: body.password,
      displayName: body.display_name,
      email: body.email,
      group: body.group,
      credits: [{ amount: body.quota, note: `Initial quota set by administrator ${actor.username}`, type: LOG_TYPE.MANAGE }],
    })
    return ok(c, userRow(user), 'Created')
  })
  .put('/user/', adminRoute, validate('json', updateUserSchema), async (c) => {
    const body = c.req.valid('json')
    await assertGroup(c.env, body.group)
    const actor = c.get('user')!
    if (body.quota !== undefined && body.id === actor.id) assertNotRaisingOwnQuota(actor, body.id, body.quota - (await currentQuota(c.env, body.id)))
    const before = await targetUser(c.env, { id: body.id })
    const after = await updateUser(c.env, actor, body)
    c.set('audit', { targetId: body.id, before, after })
    return ok(c, userRow(after), 'Updated')
  })
  .post('/user/manage', adminRoute, validate('json', manageSchema), async (c) => {
    const { action, ...ref } = c.req.valid('json')
    // Making an administrator is a step-up action (../auth/step-up.ts).
    if (action === 'promote') await assertStepUp(c)
    const user = await manageUser(c.env, c.get('user')!, ref, action)
    return ok(c, user && userRow(user), 'Updated')
  })
  .post('/user/quota/:id{[0-9]+}', adminRoute, validate('param', idParam), validate('json', quotaSchema), async (c) => {
    const actor = c.get('user')!
    const target = await targetUser(c.env, { id: c.req.valid('param').id })
    assertCanManage(actor, target)
    const { quota, remark } = c.req.valid('json')
    assertNotRaisingOwnQuota(actor, target.id, quota)
    const after = await adjustQuota(c.env, actor, target, quota, remark)
    c.set('audit', { targetId: target.id, before: { quota: after - quota }, after: { quota: after, change: quota, remark } })
    return ok(c, { quota: after } satisfies QuotaChangeResult, 'Quota updated')
  })
  .delete('/user/:id{[0-9]+}', adminRoute, validate('param', idParam), async (c) => {
    const actor = c.get('user')!
    const target = await targetUser(c.env, { id: c.req.valid('param').id })
    if (target.role >= ROLE.ROOT) throw forbidden('The root account cannot be deleted')
    if (target.id === actor.id) throw forbidden('You cannot delete your own account')
    assertCanManage(actor, target)
    await deleteUser(c.env, target)
    return ok(c, null, 'Deleted')
  })
