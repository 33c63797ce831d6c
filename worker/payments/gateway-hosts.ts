/**
 * The addresses of a payment gateway row (security finding 6 of round 3): its config fields marked
 * `host` (each gateway declares them in its own field list) plus the row's notify domain. Every one
 * goes through the outbound-URL guard, and when one of them changes the stored secrets are not
 * carried over: a secret sent to a new address must be typed again (a required one missing is a
 * 400 naming it; an optional one, such as Stripe's webhook secret, is dropped and set up afresh).
 * Also the audit summary of a gateway change: which fields changed, secrets as changed/unchanged only.
 */
import { badRequest } from '../lib/errors'
import { assertOutboundUrls } from '../lib/outbound-url'
import type { Gateway } from './gateways/types'

const NOTIFY_DOMAIN = 'notify_domain'

const normalized = (v: string | undefined) => (v ?? '').trim().replace(/\/+$/, '')

const hostKeys = (gateway: Gateway) => gateway.fields.filter((f) => f.host).map((f) => f.key)

/** Refuse (400) any host of the config, or the notify domain, that the outbound-URL guard refuses. */
export function assertGatewayHosts(env: Env, gateway: Gateway, config: Record<string, string>, notifyDomain: string) {
  for (const key of hostKeys(gateway)) if (config[key]) assertOutboundUrls(env, config[key], `config.${key}`)
  if (notifyDomain) assertOutboundUrls(env, notifyDomain, NOTIFY_DOMAIN)
}

/** The host fields whose value an update changes (a field not sent keeps its stored value). */
export function movedHosts(
  gateway: Gateway,
  submitted: Record<string, unknown>,
  stored: Record<string, string>,
  notifyDomain: { before: string; after: string | undefined }
): string[] {
  const moved = hostKeys(gateway).filter((key) => {
    const v = submitted[key]
    return v !== undefined && v !== null && normalized(String(v)) !== normalized(stored[key])
  })
  if (notifyDomain.after !== undefined && normalized(notifyDomain.after) !== normalized(notifyDomain.before)) moved.push(NOTIFY_DOMAIN)
  return moved
}

/**
 * The stored config an update merges into: as stored, or, when a host moved, without its secrets.
 * A required secret that was set and is not typed again is refused with a message naming the host.
 */
export function storedForUpdate(gateway: Gateway, submitted: Record<string, unknown>, stored: Record<string, string>, moved: string[]): Record<string, string> {
  if (moved.length === 0) return stored
  const kept = { ...stored }
  const fields: Record<string, string> = {}
  for (const f of gateway.fields) {
    if (!f.secret) continue
    delete kept[f.key]
    if (f.required && stored[f.key] && !submitted[f.key])
      fields[`config.${f.key}`] = `must be typed again: ${moved.join(', ')} changed, and saved secrets never follow a new address`
  }
  if (Object.keys(fields).length)
    throw badRequest(
      Object.entries(fields)
        .map(([k, m]) => `${k}: ${m}`)
        .join('; '),
      { fields }
    )
  return kept
}

/** What an update changed, for the manage log: field names, hosts before → after, secrets as changed/unchanged/cleared. */
export function gatewayChanges(
  gateway: Gateway,
  before: { row: Record<string, unknown>; config: Record<string, string> },
  after: { row: Record<string, unknown>; config: Record<string, string> }
) {
  const changed = Object.keys(after.row).filter((k) => String(after.row[k]) !== String(before.row[k]))
  const hosts: Record<string, { before: string; after: string }> = {}
  const secrets: Record<string, 'changed' | 'unchanged' | 'cleared'> = {}
  for (const f of gateway.fields) {
    const was = before.config[f.key] ?? ''
    const now = after.config[f.key] ?? ''
    if (f.secret) secrets[f.key] = was === now ? 'unchanged' : now ? 'changed' : 'cleared'
    else if (was !== now) changed.push(`config.${f.key}`)
    if (f.host && was !== now) hosts[f.key] = { before: was, after: now }
  }
  return { changed, hosts, secrets }
}
