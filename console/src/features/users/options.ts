/**
 * Role and status metadata of the users page, and which actions the signed-in admin may take on a
 * row — the server's rules (worker/admin/users/users.admin.ts) mirrored so nothing it would refuse
 * is offered: only root promotes or demotes; root is never disabled, deleted or demoted; an admin
 * cannot act on peers or root; nobody disables or deletes their own account.
 */
import { ROLE, USER_STATUS } from '@contract/enums'
import type { AdminUser, ManageAction } from '@contract/users'

export type RoleKey = 'user' | 'admin' | 'root' | 'unknown'

export function roleKey(role: number): RoleKey {
  if (role === ROLE.ROOT) return 'root'
  if (role === ROLE.ADMIN) return 'admin'
  if (role === ROLE.USER) return 'user'
  return 'unknown'
}

export interface Actor {
  id: number
  role: number
}

/** Edit and quota changes: root on everyone, an admin on ordinary users and themself. */
export function canManage(actor: Actor, target: Pick<AdminUser, 'id' | 'role'>): boolean {
  return actor.role >= ROLE.ROOT || target.id === actor.id || target.role < actor.role
}

/** The manage actions offered on a row, in menu order. */
export function manageActions(actor: Actor, target: Pick<AdminUser, 'id' | 'role' | 'status'>): ManageAction[] {
  if (!canManage(actor, target) || target.role >= ROLE.ROOT || target.id === actor.id) return []
  const actions: ManageAction[] = [target.status === USER_STATUS.DISABLED ? 'enable' : 'disable']
  if (actor.role >= ROLE.ROOT) actions.push(target.role >= ROLE.ADMIN ? 'demote' : 'promote')
  actions.push('delete')
  return actions
}
