/**
 * Requests-, tokens-per-minute and concurrency limits as sliding one-minute windows, and the
 * budget period of a token. The same LimitBook runs in two places: in each isolate (approximate,
 * no round trip: worker/access/token-limits.ts) and in the user's wallet (exact for the requests
 * it sees: synchronous reserves, and lease reports as they arrive, user-wallet.ts).
 *
 * Window keys: `t:<token>` (the token's limits), `t:<token>:m:<pattern>` (a model_limits
 * entry of the token), `t:<token>:um:<pattern>` (one of its owner's), `u:<user>` (the group's per-user TPM). A request is refused when a window is already
 * at its limit (TPM: the tokens counted in the last minute, in-flight requests at their
 * reservation's estimate, reach the limit); it then waits until the oldest entries leave.
 * Windows live in memory only: a restart forgets them (never money: budgets are in TokenState).
 */
import { periodBounds, type BudgetPeriod } from '../lib/budget-period'

export const WINDOW_MS = 60_000

export type LimitCode = 'rate_limit_exceeded' | 'tokens_per_minute_exceeded' | 'concurrency_limit_exceeded' | 'budget_exceeded'

/** One window a request counts in: `rpm` counts requests, `tpm` prompt + completion tokens. */
export interface RateRule {
  key: string
  kind: 'rpm' | 'tpm'
  limit: number
}

/** What a request is checked and counted against. */
export interface LimitSpec {
  rules: RateRule[]
  /** The reservation's token estimate (prompt + worst-case completion), counted until it settles. */
  tokens: number
  /** The token's in-flight limit (0 = none). */
  concurrency?: { key: string; limit: number }
  /** The token's budget (quota units per period, starting at midnight in `tz`). */
  budget?: { period: Exclude<BudgetPeriod, ''>; quota: number; tz: string }
}

export interface LimitRefusal {
  code: LimitCode
  /** Milliseconds until the window frees (at least 1000). */
  retryAfterMs: number
}

/** For headers: the tightest requests and tokens window (undefined when no such limit applies). */
export interface LimitStatus {
  requests?: { limit: number; remaining: number; resetMs: number }
  tokens?: { limit: number; remaining: number; resetMs: number }
}

interface Entry {
  at: number
  n: number
  id?: string
}

class Window {
  entries: Entry[] = []

  prune(now: number) {
    let drop = 0
    while (drop < this.entries.length && this.entries[drop]!.at <= now - WINDOW_MS) drop++
    if (drop) this.entries.splice(0, drop)
  }

  total(): number {
    let sum = 0
    for (const e of this.entries) sum += e.n
    return sum
  }

  /** Ms until the total falls below `limit` (0 when it is below already). */
  freeIn(limit: number, now: number): number {
    let total = this.total()
    if (total < limit) return 0
    for (const e of this.entries) {
      total -= e.n
      if (total < limit) return Math.max(0, e.at + WINDOW_MS - now)
    }
    return WINDOW_MS
  }

  add(e: Entry) {
    // Entries stay ordered by time (reported entries may be older than the newest).
    let i = this.entries.length
    while (i > 0 && this.entries[i - 1]!.at > e.at) i--
    this.entries.splice(i, 0, e)
  }
}

const weight = (rule: RateRule, tokens: number) => (rule.kind === 'rpm' ? 1 : Math.max(0, tokens))
const atLeastOneSecond = (ms: number) => Math.max(1000, Math.ceil(ms / 1000) * 1000)

export class LimitBook {
  private readonly windows = new Map<string, Window>()
  private readonly inflight = new Map<string, Set<string>>()
  /** Request id → what it counted in, until it settles. */
  private readonly open = new Map<string, { keys: string[]; concurrency?: string }>()

  private window(rule: RateRule): Window {
    const key = `${rule.kind}|${rule.key}`
    let w = this.windows.get(key)
    if (!w) this.windows.set(key, (w = new Window()))
    return w
  }

  /** The first limit the request would break now, or undefined. */
  check(spec: LimitSpec, now: number): LimitRefusal | undefined {
    const c = spec.concurrency
    if (c && c.limit > 0 && (this.inflight.get(c.key)?.size ?? 0) >= c.limit) return { code: 'concurrency_limit_exceeded', retryAfterMs: 1000 }
    for (const rule of spec.rules) {
      if (rule.limit <= 0) continue
      const w = this.window(rule)
      w.prune(now)
      const wait = w.freeIn(rule.limit, now)
      if (wait > 0) return { code: rule.kind === 'rpm' ? 'rate_limit_exceeded' : 'tokens_per_minute_exceeded', retryAfterMs: atLeastOneSecond(wait) }
    }
    return undefined
  }

  /** Count an admitted request (in flight until `settle(id)`). */
  admit(spec: LimitSpec, id: string, now: number) {
    if (spec.rules.length === 0 && !(spec.concurrency && spec.concurrency.limit > 0)) return
    this.record(spec.rules, now, spec.tokens, id)
    const c = spec.concurrency
    if (c && c.limit > 0) {
      let set = this.inflight.get(c.key)
      if (!set) this.inflight.set(c.key, (set = new Set()))
      set.add(id)
    }
    this.open.set(id, { keys: spec.rules.filter((r) => r.kind === 'tpm').map((r) => `tpm|${r.key}`), concurrency: c && c.limit > 0 ? c.key : undefined })
  }

  /** Count a request in its windows at `at` (a lease report: what another isolate already admitted). */
  record(rules: RateRule[], at: number, tokens: number, id?: string) {
    for (const rule of rules) if (rule.limit > 0) this.window(rule).add({ at, n: weight(rule, tokens), id })
  }

  /** The request is done: its TPM entries take the settled token count, and it leaves the in-flight set. */
  settle(id: string, tokens: number) {
    const open = this.open.get(id)
    if (!open) return
    this.open.delete(id)
    for (const key of open.keys) {
      const e = this.windows.get(key)?.entries.find((x) => x.id === id)
      if (e) e.n = Math.max(0, tokens)
    }
    if (open.concurrency) {
      const set = this.inflight.get(open.concurrency)
      set?.delete(id)
      if (set && set.size === 0) this.inflight.delete(open.concurrency)
    }
  }

  /** Windows at or over their limit now, each with when it frees (for lease reports). */
  full(rules: RateRule[], now: number): Record<string, number> {
    const out: Record<string, number> = {}
    for (const rule of rules) {
      if (rule.limit <= 0) continue
      const w = this.window(rule)
      w.prune(now)
      const wait = w.freeIn(rule.limit, now)
      if (wait > 0) out[`${rule.kind}|${rule.key}`] = now + wait
    }
    return out
  }

  /** The tightest requests and tokens window of `rules`, for the x-ratelimit headers. */
  status(rules: RateRule[], now: number): LimitStatus {
    const out: LimitStatus = {}
    for (const rule of rules) {
      if (rule.limit <= 0) continue
      const w = this.window(rule)
      w.prune(now)
      const remaining = Math.max(0, rule.limit - w.total())
      const oldest = w.entries[0]
      const resetMs = oldest ? Math.max(0, oldest.at + WINDOW_MS - now) : 0
      const slot = rule.kind === 'rpm' ? 'requests' : 'tokens'
      const cur = out[slot]
      if (!cur || remaining < cur.remaining) out[slot] = { limit: rule.limit, remaining, resetMs }
    }
    return out
  }

  /** Forget empty windows (bounded memory in a long-lived isolate or wallet). */
  sweep(now: number) {
    for (const [key, w] of this.windows) {
      w.prune(now)
      if (w.entries.length === 0) this.windows.delete(key)
    }
  }
}

/** A token's budget in the wallet state: the current period, and the quota its logs in it add up to. */
export interface BudgetState {
  period: Exclude<BudgetPeriod, ''>
  tz: string
  quota: number
  start: number
  end: number
  used: number
}

/** Move the budget to the period containing `now` (a new period starts at 0). */
export function rollBudget(b: BudgetState, now: number): boolean {
  if (now >= b.start && now < b.end) return false
  const { start, end } = periodBounds(b.period, b.tz, now)
  b.start = start
  b.end = end
  b.used = 0
  return true
}

/** Units still free in the budget's current period (never below 0). */
export const budgetLeft = (b: BudgetState, now: number) => {
  rollBudget(b, now)
  return Math.max(0, b.quota - b.used)
}
