/**
 * User accounts: creation (with the new-user quota and its log, written in one D1 batch),
 * lookup by login name, and username checks (the profile reads other surfaces use live in
 * worker/accounts/users.ts).
 */
import { eq, or, sql } from 'drizzle-orm'
import { createDb } from '../../db/client'
import { users, type User } from '../../db/schema'
import { hashPassword, randomString } from '../../lib/crypto'
import { conflict } from '../../lib/errors'
import { EMAIL_TAKEN_MESSAGE, isEmailUniqueViolation, isUniqueViolation } from '../../db/errors'
import { nowSeconds } from '../../lib/time'
import { LOG_TYPE } from '../../../shared/contract/enums'

export interface CreateUserInput {
  username: string
  password: string
  displayName?: string
  email?: string
  role?: number
  group?: string
  inviterId?: number
  /** Initial credits (new-user quota, invitee reward, admin grant), each explained by its own log row. */
  credits?: { amount: number; note: string; type?: number }[]
}

export async function findByLogin(env: Env, login: string): Promise<User | undefined> {
  const [row] = await createDb(env.DB)
    .select()
    .from(users)
    .where(or(eq(users.username, login), login.includes('@') ? eq(users.email, login) : sql`0`))
    .limit(1)
  return row
}

export async function usernameTaken(env: Env, username: string, exceptId?: number): Promise<boolean> {
  const [row] = await createDb(env.DB).select({ id: users.id }).from(users).where(eq(users.username, username)).limit(1)
  return row !== undefined && row.id !== exceptId
}

/** Insert a user; the initial quota (if any) is logged as a system log in the same batch. */
export async function createUser(env: Env, input: CreateUserInput): Promise<User> {
  if (await usernameTaken(env, input.username)) throw conflict('Username already exists')
  const now = nowSeconds()
  const credits = (input.credits ?? []).filter((c) => c.amount > 0)
  const quota = credits.reduce((sum, c) => sum + c.amount, 0)
  // The user and the logs explaining the initial quota land in one D1 transaction.
  const insertUser = env.DB.prepare(
    `INSERT INTO users (username, password, display_name, email, role, "group", quota, aff_code, inviter_id, created_time)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)`
  ).bind(
    input.username,
    input.password ? await hashPassword(input.password) : '',
    input.displayName || input.username,
    input.email ?? '',
    input.role ?? 1,
    input.group ?? 'default',
    quota,
    randomString(8),
    input.inviterId ?? 0,
    now
  )
  const logCredits = credits.map((c) =>
    env.DB.prepare(
      `INSERT INTO logs (user_id, username, created_at, type, quota, content)
       SELECT id, username, ?2, ?3, ?4, ?5 FROM users WHERE username = ?1`
    ).bind(input.username, now, c.type ?? LOG_TYPE.SYSTEM, c.amount, c.note)
  )
  try {
    await env.DB.batch([insertUser, ...logCredits])
  } catch (err) {
    if (isEmailUniqueViolation(err)) throw conflict(EMAIL_TAKEN_MESSAGE)
    if (isUniqueViolation(err)) throw conflict('Username already exists')
    throw err
  }
  const [created] = await createDb(env.DB).select().from(users).where(eq(users.username, input.username)).limit(1)
  return created!
}
