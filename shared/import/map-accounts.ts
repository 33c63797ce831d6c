/**
 * Accounts and money: users (bcrypt password hashes kept for the login's upgrade path, roles,
 * groups, balances), API keys (kept verbatim and marked imported so they authenticate without this
 * gateway's signature), user groups (one-hub's table or one-api's GroupRatio option) and redemption
 * codes (stored hashed, as this gateway stores its own). Also the opening-balance ledger rows.
 */
import { ImportPlan, bool, int, parseJson, sha256Hex, softDeleted, splitList, str, type Value } from './plan'
import type { Row } from './sql-dump'
import { looksLikeImportedKey } from '../contract/imported-keys'
import { TOKEN_STATUS } from '../contract/enums'

const ROLES = new Set([1, 10, 100])
const BCRYPT = /^\$2[abxy]\$\d\d\$[./A-Za-z0-9]{53}$/

export function mapUsers(plan: ImportPlan, rows: Row[]): Record<string, Value>[] {
  const out: Record<string, Value>[] = []
  const seen = new Set<string>()
  // One account per address here (unique lower(email)): a later duplicate keeps its account without the address.
  const emails = new Set<string>()
  for (const r of rows) {
    plan.count('users').read++
    const id = int(r.id)
    const username = str(r.username).trim()
    if (id <= 0) {
      plan.skip('users', r, 'no usable id')
      continue
    }
    if (!username || seen.has(username.toLowerCase())) {
      plan.skip('users', r, username ? `duplicate username ${username}` : 'empty username')
      continue
    }
    seen.add(username.toLowerCase())
    const password = str(r.password)
    if (password && !BCRYPT.test(password)) plan.problems.push(`users id ${id}: the password is not a bcrypt hash; the user must reset it`)
    let role = int(r.role, 1)
    if (!ROLES.has(role)) {
      plan.problems.push(`users id ${id}: role ${role} has no equivalent here; imported as a common user`)
      role = 1
    }
    // one-api 3 = deleted (the username renamed), one-hub soft delete: kept disabled, for their history.
    const status = int(r.status, 1) === 1 && !softDeleted(r) ? 1 : 2
    const accessToken = str(r.access_token)
    let email = str(r.email).trim()
    if (email && emails.has(email.toLowerCase())) {
      plan.problems.push(`users id ${id}: the email ${email} is already used by an earlier user; imported without an email`)
      email = ''
    }
    if (email) emails.add(email.toLowerCase())
    out.push({
      id,
      username,
      password: BCRYPT.test(password) ? password : '',
      display_name: str(r.display_name),
      role,
      status,
      email,
      avatar_url: str(r.avatar_url),
      github_id: str(r.github_id) || (int(r.github_id_new) ? String(int(r.github_id_new)) : ''),
      oidc_id: str(r.oidc_id),
      wechat_id: str(r.wechat_id),
      lark_id: str(r.lark_id),
      telegram_id: int(r.telegram_id),
      access_token: accessToken ? sha256Hex(accessToken) : null,
      quota: int(r.quota),
      used_quota: int(r.used_quota),
      request_count: int(r.request_count),
      group: str(r.group) || 'default',
      aff_code: str(r.aff_code) || null,
      aff_count: int(r.aff_count),
      aff_quota: int(r.aff_quota),
      inviter_id: int(r.inviter_id),
      last_login_time: int(r.last_login_time),
      last_login_ip: str(r.last_login_ip),
      created_time: int(r.created_time),
    })
  }
  plan.add({
    table: 'users',
    rows: out,
    onConflict: {
      target: ['id'],
      // Never quota/used_quota/request_count: after the first import the user's wallet owns them.
      update: [
        'username',
        'password',
        'display_name',
        'role',
        'status',
        'email',
        'avatar_url',
        'github_id',
        'oidc_id',
        'wechat_id',
        'lark_id',
        'telegram_id',
        'access_token',
        'group',
        'aff_code',
        'inviter_id',
      ],
    },
  })
  return out
}

/**
 * One SYSTEM ledger row per imported user stating the balance it arrived with, so every balance has
 * a log row that explains it (as root's starting grant has). Written once: a re-run finds it by
 * its request id and adds nothing.
 */
export function balanceRows(plan: ImportPlan, users: Record<string, Value>[], now: number): Record<string, Value>[] {
  return users.map((u) => ({
    user_id: u.id ?? null,
    username: u.username ?? '',
    created_at: now,
    type: 4,
    quota: u.quota ?? 0,
    content: `Balance imported from ${plan.source}: ${u.quota} units (used before: ${u.used_quota} units in ${u.request_count} requests)`,
    request_id: `import:balance:${u.id}`,
  }))
}

function tokenSetting(plan: ImportPlan, r: Row): Record<string, unknown> {
  const setting = parseJson<Record<string, any>>(str(r.setting)) ?? {}
  const limits: Record<string, unknown> = {}
  const oh = setting.limits ?? {}
  if (oh.limit_model_setting?.enabled) limits.limit_model_setting = { enabled: true, models: oh.limit_model_setting.models ?? [] }
  if (oh.limits_ip_setting?.enabled) limits.limits_ip_setting = { enabled: true, whitelist: oh.limits_ip_setting.whitelist ?? [] }
  // one-api: `models` (comma list, empty = all) and `subnet` (CIDR list).
  const models = splitList(str(r.models))
  if (models.length) limits.limit_model_setting = { enabled: true, models }
  const subnets = splitList(str(r.subnet))
  if (subnets.length) limits.limits_ip_setting = { enabled: true, whitelist: subnets }
  if (setting.heartbeat?.enabled) plan.notes.push(`tokens id ${r.id}: one-hub heartbeat setting is not supported and was dropped`)
  if (setting.billing_tag) plan.notes.push(`tokens id ${r.id}: one-hub billing tag ${JSON.stringify(setting.billing_tag)} has no equivalent here and was dropped`)
  if (str(r.backup_group)) plan.notes.push(`tokens id ${r.id}: one-hub backup group ${str(r.backup_group)} has no equivalent here and was dropped`)
  return Object.keys(limits).length ? { limits } : {}
}

/**
 * Keys here are enabled (1) or disabled (2); one-hub's 3 "expired" and 4 "exhausted" are derived
 * here from the expiry time and the remaining quota, which come along, so such keys stay refused
 * until an administrator extends them — as in one-hub.
 */
function tokenStatus(status: number): number {
  return status === 1 || status === 3 || status === 4 ? TOKEN_STATUS.ENABLED : TOKEN_STATUS.DISABLED
}

export function mapTokens(plan: ImportPlan, rows: Row[], userIds: Set<number>) {
  const out: Record<string, Value>[] = []
  for (const r of rows) {
    plan.count('tokens').read++
    if (softDeleted(r)) {
      plan.skip('tokens', r, 'deleted in the source')
      continue
    }
    const key = str(r.key).replace(/^sk-/, '')
    // The same shapes one-hub accepted (48, or 59 signed); the relay accepts imported keys only in these.
    if (!looksLikeImportedKey(key)) {
      plan.skip('tokens', r, `the key is not a 48- or 59-character one-api/one-hub key (${key.length} characters)`)
      continue
    }
    if (!userIds.has(int(r.user_id))) {
      plan.skip('tokens', r, `its owner (user id ${str(r.user_id)}) is not imported`)
      continue
    }
    out.push({
      id: int(r.id),
      user_id: int(r.user_id),
      key,
      status: tokenStatus(int(r.status, 1)),
      name: str(r.name) || `imported-${r.id}`,
      created_time: int(r.created_time),
      accessed_time: int(r.accessed_time),
      expired_time: int(r.expired_time, -1),
      remain_quota: int(r.remain_quota),
      unlimited_quota: bool(r.unlimited_quota) ? 1 : 0,
      used_quota: int(r.used_quota),
      group: str(r.group),
      setting: JSON.stringify(tokenSetting(plan, r)),
      imported: 1,
    })
  }
  plan.add({
    table: 'tokens',
    rows: out,
    onConflict: { target: ['id'], update: ['user_id', 'key', 'status', 'name', 'expired_time', 'unlimited_quota', 'group', 'setting', 'imported'] },
  })
}

/** one-hub's user_groups table, or one-api's GroupRatio option ({"default":1,"vip":1}). */
export function mapGroups(plan: ImportPlan, groupRows: Row[] | undefined, groupRatioOption: string | undefined) {
  const out: Record<string, Value>[] = []
  if (groupRows) {
    for (const r of groupRows) {
      plan.count('user_groups').read++
      const symbol = str(r.symbol)
      if (!symbol) {
        plan.skip('user_groups', r, 'no symbol')
        continue
      }
      out.push({
        symbol,
        name: str(r.name) || symbol,
        ratio: Number(r.ratio ?? 1),
        api_rate: int(r.api_rate, 600),
        public: bool(r.public) ? 1 : 0,
        promotion: bool(r.promotion) ? 1 : 0,
        min: int(r.min),
        max: int(r.max),
        enable: r.enable === undefined ? 1 : bool(r.enable) ? 1 : 0,
      })
    }
  } else if (groupRatioOption) {
    const ratios = parseJson<Record<string, number>>(groupRatioOption)
    if (!ratios) plan.problems.push('options GroupRatio: not JSON; groups not imported')
    for (const [symbol, ratio] of Object.entries(ratios ?? {})) {
      plan.count('user_groups').read++
      if (typeof ratio !== 'number' || !(ratio >= 0)) {
        plan.problems.push(`options GroupRatio ${symbol}: ratio ${String(ratio)} is not a number; skipped`)
        continue
      }
      out.push({ symbol, name: symbol, ratio, api_rate: 600, public: symbol === 'default' ? 1 : 0, promotion: 0, min: 0, max: 0, enable: 1 })
    }
  }
  plan.add({ table: 'user_groups', rows: out, onConflict: { target: ['symbol'], update: ['name', 'ratio', 'api_rate', 'public', 'promotion', 'min', 'max', 'enable'] } })
}

export function mapRedemptions(plan: ImportPlan, rows: Row[]) {
  const out: Record<string, Value>[] = []
  for (const r of rows) {
    plan.count('redemptions').read++
    const key = str(r.key)
    if (!key || softDeleted(r)) {
      plan.skip('redemptions', r, key ? 'deleted in the source' : 'no key')
      continue
    }
    out.push({
      id: int(r.id),
      user_id: int(r.user_id),
      key: sha256Hex(key),
      status: int(r.status, 1),
      name: str(r.name) || 'imported',
      quota: int(r.quota),
      created_time: int(r.created_time),
      redeemed_time: int(r.redeemed_time),
    })
  }
  plan.add({ table: 'redemptions', rows: out, onConflict: { target: ['id'], update: ['status', 'name', 'quota', 'redeemed_time'] } })
}

/**
 * new-api's TOTP secrets (`two_fas`: user_id, secret in base32, is_enabled): kept for the imported
 * users who had 2FA on, so they sign in with the same authenticator app. The importer does not
 * hold the gateway's sealing key, so the secret arrives marked `plain:` and the gateway seals it on
 * its first use (worker/admin/two-factor/two-factor.store.ts). Returns the users whose secret is kept.
 */
export function mapTwoFactor(plan: ImportPlan, rows: Row[], userIds: Set<number>, now: number): Set<number> {
  const out: Record<string, Value>[] = []
  for (const r of rows) {
    plan.count('two_factor').read++
    const userId = int(r.user_id)
    const secret = str(r.secret).replace(/[\s=]/g, '').toUpperCase()
    if (!userIds.has(userId)) plan.skip('two_factor', r, `user ${userId} is not imported`)
    else if (!bool(r.is_enabled) || softDeleted(r)) plan.skip('two_factor', r, 'two-factor sign-in was not on')
    else if (!/^[A-Z2-7]{16,128}$/.test(secret)) plan.skip('two_factor', r, 'the secret is not base32')
    else out.push({ user_id: userId, secret: `plain:${secret}`, enabled: 1, last_step: 0, created_at: now })
  }
  plan.add({ table: 'two_factor', rows: out, onConflict: { target: ['user_id'], update: ['secret', 'enabled', 'last_step'] } })
  return new Set(out.map((r) => Number(r.user_id)))
}

const BCRYPT_HASH = /^\$2[abxy]\$\d\d\$[./A-Za-z0-9]{53}$/

/**
 * new-api's unused backup codes (`two_fa_backup_codes`: user_id, code_hash = bcrypt of `XXXX-XXXX`,
 * is_used) of the users whose TOTP secret is kept: the gateway checks that bcrypt form at sign-in,
 * so the codes the users wrote down keep working, once each. Their ids are kept and a row whose id
 * is already taken is left alone, so running the import again adds nothing twice.
 */
export function mapTwoFactorBackupCodes(plan: ImportPlan, rows: Row[], twoFactorUsers: Set<number>) {
  const out: Record<string, Value>[] = []
  for (const r of rows) {
    plan.count('two_factor_backup_codes').read++
    const userId = int(r.user_id)
    const hash = str(r.code_hash)
    if (!twoFactorUsers.has(userId)) plan.skip('two_factor_backup_codes', r, `user ${userId} has no imported two-factor secret`)
    else if (bool(r.is_used) || softDeleted(r)) plan.skip('two_factor_backup_codes', r, 'already used')
    else if (!BCRYPT_HASH.test(hash)) plan.skip('two_factor_backup_codes', r, 'the hash is not bcrypt')
    else out.push({ id: int(r.id), user_id: userId, code_hash: hash, used_at: 0 })
  }
  plan.add({ table: 'two_factor_backup_codes', rows: out, onConflict: 'ignore' })
}
