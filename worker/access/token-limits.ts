/**
 * Per-token limits on the relay's warm path: requests per minute, tokens per minute (prompt +
 * completion; an in-flight request counts its reservation's estimate until it settles),
 * concurrency, per-model overrides (`model_limits`) and the group's per-user TPM, plus the
 * x-ratelimit-* headers and the 429s with Retry-After. Task submits and realtime sessions count as
 * requests of no tokens (`tokenlessSpec`). The budget itself is money and lives in
 * the wallet (worker/wallet/wallet-limits.ts, user-wallet.ts): a credit lease never exceeds the
 * budget's remainder, so a request the lease cannot cover goes to the wallet, which refuses it
 * exactly with `budget_exceeded`.
 *
 * How exact (the tolerance): each isolate counts the requests it admits in a local sliding window
 * (no round trip). Requests served from a credit lease reach the wallet with the lease's batched
 * reports; the wallet counts them at their admission time and answers which windows are full, and
 * from then until the window frees this isolate sends that token's requests the synchronous way
 * (the wallet's reserve, exact). So RPM/TPM may be exceeded by at most what each other isolate
 * admits before its next report comes back (its in-flight requests plus one batch); concurrency is
 * exact per isolate and at the wallet for synchronous requests, and may reach the limit once per
 * isolate across isolates. Budgets are never exceeded except by a supplier's overrun beyond the
 * reservation (charged in full, like the balance).
 */
import { ApiError } from '../lib/errors'
import { LimitBook, type LimitCode, type LimitSpec, type LimitStatus, type RateRule } from '../wallet/wallet-limits'
import { onIsolateReset } from '../cache/isolate'
import type { BudgetPeriod } from '../lib/budget-period'
import type { ModelLimits } from '../db/schema/limits'

/** The limit columns of one row (a token's or its owner's), 0 / '' / {} meaning "not set". */
export interface OwnLimits {
  rpm: number
  tpm: number
  concurrency: number
  budgetPeriod: BudgetPeriod
  budgetQuota: number
  models: ModelLimits
}

/** What a token's requests are held to: its own limits narrowed by its owner's (effectiveLimits). */
export interface TokenLimits extends OwnLimits {
  /** The owner's model_limits, applied beside the token's own (both entries hold: the stricter wins). */
  ownerModels: ModelLimits
}

/** One number set on both sides: the smaller wins; 0 (not set) on one side leaves the other's. */
const tighter = (owner: number, own: number) => (owner > 0 && own > 0 ? Math.min(owner, own) : owner > 0 ? owner : Math.max(0, own))

const hasBudget = (l: OwnLimits) => Boolean(l.budgetPeriod) && l.budgetQuota > 0

/**
 * The limits a token's requests are held to (security finding 18). The owner's values, set by an
 * administrator, are ceilings for every key of the owner: a key may only narrow them. RPM, TPM and
 * concurrency take the smaller value set; model_limits of both apply. A budget is one period and
 * quota (the wallet keeps one per key): the key's own budget counts when the owner has none, or
 * with the owner's period at the smaller quota; a key budget over another period cannot replace the
 * owner's, so the owner's holds.
 */
export function effectiveLimits(own: OwnLimits, owner: OwnLimits): TokenLimits {
  const budget = !hasBudget(owner)
    ? hasBudget(own)
      ? own
      : undefined
    : hasBudget(own) && own.budgetPeriod === owner.budgetPeriod
      ? { budgetPeriod: owner.budgetPeriod, budgetQuota: Math.min(own.budgetQuota, owner.budgetQuota) }
      : owner
  return {
    rpm: tighter(owner.rpm, own.rpm),
    tpm: tighter(owner.tpm, own.tpm),
    concurrency: tighter(owner.concurrency, own.concurrency),
    budgetPeriod: budget?.budgetPeriod ?? '',
    budgetQuota: budget?.budgetQuota ?? 0,
    models: own.models,
    ownerModels: owner.models,
  }
}

let book = new LimitBook()
/** Window key → until when the wallet said it is full. */
const walletFull = new Map<string, number>()
let lastSweep = 0
onIsolateReset(() => {
  book = new LimitBook()
  walletFull.clear()
})

/** The model_limits entry for `model`: its exact name, else the longest matching `prefix*`. */
export function modelLimitFor(models: ModelLimits, model: string): [string, { rpm: number; tpm: number }] | undefined {
  if (Object.hasOwn(models, model)) return [model, models[model]!]
  let best: [string, { rpm: number; tpm: number }] | undefined
  for (const [pattern, limit] of Object.entries(models)) {
    if (!pattern.endsWith('*') || !model.startsWith(pattern.slice(0, -1))) continue
    if (!best || pattern.length > best[0].length) best = [pattern, limit]
  }
  return best
}

/** What a request of this token for `model` counts in; `tokens` is its reservation's estimate. */
export function limitSpec(who: { tokenId: number; userId: number; limits: TokenLimits }, model: string, groupTpm: number, timeZone: string, tokens: number): LimitSpec {
  const t = `t:${who.tokenId}`
  const l = who.limits
  const rules: RateRule[] = []
  if (l.rpm > 0) rules.push({ key: t, kind: 'rpm', limit: l.rpm })
  if (l.tpm > 0) rules.push({ key: t, kind: 'tpm', limit: l.tpm })
  // The key's own model_limits entry and its owner's both count (separate windows of the same requests).
  for (const [scope, models] of [
    ['m', l.models],
    ['um', l.ownerModels],
  ] as const) {
    const m = modelLimitFor(models ?? {}, model)
    if (m && m[1].rpm > 0) rules.push({ key: `${t}:${scope}:${m[0]}`, kind: 'rpm', limit: m[1].rpm })
    if (m && m[1].tpm > 0) rules.push({ key: `${t}:${scope}:${m[0]}`, kind: 'tpm', limit: m[1].tpm })
  }
  if (groupTpm > 0) rules.push({ key: `u:${who.userId}`, kind: 'tpm', limit: groupTpm })
  const spec: LimitSpec = { rules, tokens: Math.max(0, Math.ceil(tokens)) }
  if (l.concurrency > 0) spec.concurrency = { key: t, limit: l.concurrency }
  if (l.budgetPeriod && l.budgetQuota > 0) spec.budget = { period: l.budgetPeriod, quota: l.budgetQuota, tz: timeZone }
  return spec
}

/**
 * The limits of a request that uses no tokens (a task submit, a realtime session): counted once as
 * a request; `again` (a further attempt of the same request) keeps the budget only.
 */
export function tokenlessSpec(who: { tokenId: number; userId: number; limits: TokenLimits }, model: string, timeZone: string, again = false): LimitSpec {
  const spec = limitSpec(who, model, 0, timeZone, 0)
  return again ? budgetOnly(spec) : spec
}

/** The budget of `spec` alone: nothing counted as a request, the money cap kept. */
export const budgetOnly = (spec: LimitSpec): LimitSpec => ({ rules: [], tokens: 0, ...(spec.budget ? { budget: spec.budget } : {}) })

/** Whether the request must be limited at all (no limits: nothing is counted). */
export const hasLimits = (spec: LimitSpec) => spec.rules.length > 0 || spec.concurrency !== undefined

/** This isolate's verdict: a refusal when a window it knows of is full. */
export function checkLocally(spec: LimitSpec, now: number) {
  if (now - lastSweep > 60_000) {
    lastSweep = now
    book.sweep(now)
    for (const [k, until] of walletFull) if (until <= now) walletFull.delete(k)
  }
  return book.check(spec, now)
}

/** True when the wallet said one of the request's windows is full: ask it (the exact way). */
export function walletSaysFull(spec: LimitSpec, now: number): boolean {
  return spec.rules.some((r) => (walletFull.get(`${r.kind}|${r.key}`) ?? 0) > now)
}

export function admitLocally(spec: LimitSpec, id: string, now: number) {
  if (hasLimits(spec)) book.admit(spec, id, now)
}

export function settleLocally(id: string, tokens: number) {
  book.settle(id, tokens)
}

/** A lease report's answer: the windows the wallet counts as full, and until when. */
export function noteWalletFull(full: Record<string, number> | undefined) {
  if (full) for (const [k, until] of Object.entries(full)) walletFull.set(k, Math.max(until, walletFull.get(k) ?? 0))
}

export const localStatus = (spec: LimitSpec, now: number): LimitStatus => book.status(spec.rules, now)

/** OpenAI's reset format: "20ms", "1s", "6m0s", "1h2m3s". */
export function formatReset(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))}ms`
  let s = Math.ceil(ms / 1000)
  const h = Math.floor(s / 3600)
  s -= h * 3600
  const m = Math.floor(s / 60)
  s -= m * 60
  if (h > 0) return `${h}h${m}m${s}s`
  if (m > 0) return `${m}m${s}s`
  return `${s}s`
}

/** The x-ratelimit-* headers of a status (only the kinds that have a limit). */
export function rateLimitHeaders(status: LimitStatus): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [slot, v] of [
    ['requests', status.requests],
    ['tokens', status.tokens],
  ] as const) {
    if (!v) continue
    out[`x-ratelimit-limit-${slot}`] = String(v.limit)
    out[`x-ratelimit-remaining-${slot}`] = String(v.remaining)
    out[`x-ratelimit-reset-${slot}`] = formatReset(v.resetMs)
  }
  return out
}

const MESSAGES: Record<LimitCode, string> = {
  rate_limit_exceeded: 'This API key has reached its requests-per-minute limit.',
  tokens_per_minute_exceeded: 'This API key has reached its tokens-per-minute limit.',
  concurrency_limit_exceeded: 'This API key has too many requests in progress.',
  budget_exceeded: 'This API key has spent its budget for the current period.',
}

/** The 429 of a limit, with Retry-After (whole seconds until the window frees) and the rate headers. */
export function limitError(code: LimitCode, retryAfterMs: number, headers: Record<string, string> = {}): ApiError {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000))
  return new ApiError(429, `${MESSAGES[code]} Retry after ${seconds} s.`, {
    code,
    type: code === 'budget_exceeded' ? 'insufficient_quota' : 'rate_limit_error',
    headers: { ...headers, 'retry-after': String(seconds) },
  })
}
