/**
 * Site settings for root: GET /api/option/ lists every option (secrets masked, with a
 * `configured` flag), PUT /api/option/ saves one `{key, value}` or many `{options: {...}}`.
 * A login method (and Turnstile, email verification, the email whitelist) can only be on while
 * its credentials are set: turning it on without them, or clearing them while it is on, is a 400.
 * Every option that a save changes writes one manage-log row (actor, client address, old and new
 * value; a secret only as changed or cleared).
 */
import { Hono } from 'hono'
import { z } from 'zod'
import { rootRoute } from '../../middleware/access'
import { badRequest } from '../../lib/errors'
import { ok } from '../../lib/respond'
import { validate } from '../../lib/validate'
import { getSettings, publicOptionList, saveOptions, type Settings } from '../../settings/store'
import { clientIp } from '../../lib/client-ip'
import type { HonoEnv, SessionUser } from '../../env'
import { SECRET_OPTION_KEYS, type OptionKey } from '../../../shared/contract/settings'
import { syncGroupsFromRatio } from '../groups/groups.service'
import { auditLog } from '../../logs/audit-log'
import { assertOutboundUrls } from '../../lib/outbound-url'

const scalar = z.union([z.string().max(200_000), z.number(), z.boolean()]).transform(String)
const putSchema = z.union([z.object({ key: z.string().min(1).max(64), value: scalar }), z.object({ options: z.record(z.string().max(64), scalar) })])

/** Each toggle and the settings it needs (one-hub refuses to enable a method without them). */
const REQUIREMENTS: { toggle: OptionKey; label: string; needs: OptionKey[] }[] = [
  { toggle: 'GitHubOAuthEnabled', label: 'GitHub login', needs: ['GitHubClientId', 'GitHubClientSecret'] },
  { toggle: 'OIDCAuthEnabled', label: 'OIDC login', needs: ['OIDCClientId', 'OIDCClientSecret', 'OIDCIssuer'] },
  { toggle: 'WeChatAuthEnabled', label: 'WeChat login', needs: ['WeChatServerAddress', 'WeChatServerToken'] },
  { toggle: 'LarkAuthEnabled', label: 'Lark login', needs: ['LarkClientId', 'LarkClientSecret'] },
  { toggle: 'TurnstileCheckEnabled', label: 'Turnstile', needs: ['TurnstileSiteKey', 'TurnstileSecretKey'] },
  { toggle: 'EmailVerificationEnabled', label: 'email verification', needs: ['SMTPServer', 'SMTPAccount', 'SMTPToken'] },
  { toggle: 'EmailDomainRestrictionEnabled', label: 'the email domain whitelist', needs: ['EmailDomainWhitelist'] },
  { toggle: 'TelegramBotEnabled', label: 'the Telegram bot', needs: ['TelegramBotToken'] },
]

const isSet = (key: OptionKey, value: string) => (key === 'EmailDomainWhitelist' ? value.split(',').some((d) => d.trim() !== '') : value.trim() !== '')

/** Refuse a save that would leave an enabled method without its credentials (only rules the save touches). */
function checkRequirements(current: Settings, values: Record<string, string>) {
  const after = (key: OptionKey) => (key in values ? values[key]! : current.str(key))
  for (const rule of REQUIREMENTS) {
    if (!(rule.toggle in values) && !rule.needs.some((k) => k in values)) continue
    if (after(rule.toggle).trim() !== 'true') continue
    const missing = rule.needs.filter((k) => !isSet(k, after(k)))
    if (missing.length > 0) {
      const message = `Cannot enable ${rule.label}: set ${missing.join(', ')} first`
      throw badRequest(message, { fields: { [rule.toggle]: message } })
    }
  }
}

/** Long values (JSON tables) are cut in the log row: the row says what changed, not a backup. */
const AUDIT_VALUE_MAX = 2000
const clip = (v: string) => (v.length > AUDIT_VALUE_MAX ? `${v.slice(0, AUDIT_VALUE_MAX)}… (${v.length} chars)` : v)

/** One manage-log row per option whose stored value changed; a secret's value never goes in. */
async function auditOptions(env: Env, actor: SessionUser, before: Settings, after: Settings, keys: string[], sourceIp: string) {
  for (const key of new Set(keys) as Set<OptionKey>) {
    const [old, now] = [before.str(key), after.str(key)]
    if (old === now) continue
    const meta = SECRET_OPTION_KEYS.has(key) ? { key, secret: true, change: now === '' ? 'cleared' : 'changed' } : { key, old: clip(old), new: clip(now) }
    await auditLog(env, actor, actor, `option.update ${key}`, meta, sourceIp)
  }
}

export const optionRoutes = new Hono<HonoEnv>()
  .get('/option/', rootRoute, async (c) => ok(c, publicOptionList(await getSettings(c.env, c.executionCtx))))
  .put('/option/', rootRoute, validate('json', putSchema), async (c) => {
    const body = c.req.valid('json')
    const values = 'key' in body ? { [body.key]: body.value } : body.options
    const before = await getSettings(c.env, c.executionCtx)
    checkRequirements(before, values)
    // The trace collector is an administrator's outbound URL like a channel's base URL.
    if (values.OtlpEndpoint?.trim()) assertOutboundUrls(c.env, values.OtlpEndpoint.trim(), 'OtlpEndpoint')
    const saved = await saveOptions(c.env, values)
    await auditOptions(c.env, c.get('user')!, before, saved, Object.keys(values), clientIp(c.req))
    const keys = Object.keys(values) as OptionKey[]
    c.set('audit', {
      targetId: keys.join(','),
      before: Object.fromEntries(keys.map((k) => [k, before.str(k)])),
      after: Object.fromEntries(keys.map((k) => [k, saved.str(k)])),
    })
    if ('GroupRatio' in values) await syncGroupsFromRatio(c.env, saved.str('GroupRatio'))
    return ok(c, null, 'Saved')
  })
