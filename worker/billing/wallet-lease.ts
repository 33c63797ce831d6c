/**
 * Credit leases: the warm relay path spends from money already in the isolate instead of a synchronous wallet round trip
 * per request. An isolate takes a lease per (user, token) from the wallet Durable Object — a hold the wallet debits from the free balance when it grants it, so
 * nothing can be overspent — and each request holds its worst case from the lease locally. Exact
 * costs and log rows go to the wallet in batches — one report in flight per lease, sent
 * REPORT_GATHER_MS after the first request it carries settled (or at once when REPORT_MAX_ITEMS are
 * waiting or the lease needs a top-up), so each report carries what settled meanwhile and the
 * wallet writes its storage once per batch, not once per request (all inside the requests'
 * waitUntil, after their answers went out) — which also top the lease up in the background
 * before it runs dry. The wallet gives a lease back when its isolate stops reporting (LEASE_TTL in
 * the wallet), revokes it when the token or user is disabled, and charges every reported request
 * in full whatever happened to the lease.
 *
 * A request whose worst case does not fit the lease, or a user who reached the group's requests-per-minute limit
 * (admitLocally), takes the synchronous path: the wallet's own reserve/settle, which refuses exactly. A subscriber's lease
 * draws from the subscription's windows (a plan lease, worker/wallet/wallet-plan-lease.ts: units and requests, never beyond
 * a window's remainder, until the window rolls; wallet-lease-state.ts keeps its view); a subscriber no lease may draw for
 * (`plans_active`: a plan with model items or channel tags first, or its window full) takes the synchronous path, where
 * the plans cover requests exactly, and asks again after PLANS_BACKOFF_MS.
 *
 * A token with a budget gets leases only up to the budget's remainder in the current period (the wallet caps every grant
 * and extension), and reports carry each request's rate windows so the wallet can say which are full (access/token-limits.ts).
 *
 * All wallet calls of one lease run one at a time (`sendingSince`), so answers arrive in order and the local view — held by the
 * wallet, minus costs not yet reported, minus in-flight worst cases — never counts a unit twice. No request ever awaits a
 * promise or uses a stub that belongs to another request (the runtime forbids I/O across request contexts and cancels such
 * waits): the request that finds no report loop running starts one with its own stub inside its own waitUntil (`pumpingSince`),
 * which keeps sending what other requests queue; a request that needs a grant waits for a call in flight to finish (polling its
 * own timer), then asks the wallet itself (a report still gathering waits for it), and takes the synchronous path only when the
 * wallet refuses — after a second look if the refusal came while this lease's costs were still on their way.
 *
 * A report loop is bounded: Cloudflare cancels a request's waitUntil work 30 s after its answer, and
 * a cancelled loop never runs its `finally`. So a loop hands over after PUMP_BUDGET_MS (requests
 * settling from then on start their own loop, in their own waitUntil) and sends what was queued
 * before the hand-over once more; a loop flag or a wallet call older than STALE_MS belongs to a loop
 * the runtime cancelled and counts as free (its unanswered report goes again under its number).
 */
import { onIsolateReset } from '../cache/isolate'
import type { DebtLimits, LeaseItem, LeaseSettleResult } from '../wallet/wallet-types'
import type { PlanRef } from '../wallet/wallet-plans'
import { applyAnswer, available, fits, LEASE_REQUESTS, type Lease, lowOnRequests, newLease, unconfirmed, usesRequest } from './wallet-lease-state'
import type { LimitSpec } from '../wallet/wallet-limits'
import { clockNow } from '../lib/clock'
import { noteWalletFull } from '../access/token-limits'
import { type Wallet, walletOf } from '../wallet/wallet-client'
import { logger } from '../lib/logger'
const serverLog = logger({ module: 'wallet-lease' })

/** After a `plans_active` refusal the user's requests take the exact path (plans cover them there) this long. */
const PLANS_BACKOFF_MS = 30_000
/**
 * A lease that needs another top-up within this long is too small for this isolate's pace: its
 * top-ups double (up to MAX_LEASE_REQUESTS requests' worth), so a busy isolate keeps serving from
 * the lease instead of falling back to the synchronous path while a report is on its way.
 */
const FAST_TOPUP_MS = 1000
const MAX_LEASE_REQUESTS = 512
/** Stop spending this long before the wallet would give the lease back (its TTL is 2 minutes). */
const LOCAL_TTL_MS = 90_000
/**
 * How long a report waits for more settled requests to carry (never on a request's own path). Each
 * report costs the wallet one RPC and one storage transaction whatever it carries: at c = 32, 10 →
 * 25 ms gave +11 % req/s and 25 → 50 ms (with 64 → 128 items) +5 % more (A/B runs, 8 rounds each).
 */
const REPORT_GATHER_MS = 50
/** A report goes at once when this many requests are waiting for it. */
const REPORT_MAX_ITEMS = 128
/** How often a report waiting for the lease's other wallet call (a grant) looks again. */
const SENDING_WAIT_MS = 2
/** How long (ms, polled each 1 ms) a request that needs a grant waits for the lease's call in flight. */
const SENDING_POLLS = 500
/** A report loop hands over after this long: well inside the 30 s Cloudflare gives waitUntil work. */
const PUMP_BUDGET_MS = 20_000
/** A loop flag or a wallet call this old was cancelled by the runtime: it counts as free. */
const STALE_MS = 25_000

/** The two wallet calls a lease makes (a stub of the user's UserWallet, or one made on first use). */
export type LeaseWallet = Pick<Wallet, 'lease' | 'settleLease'>

const leases = new Map<string, Lease>()
onIsolateReset(() => leases.clear())

export interface LeaseHold {
  lease: Lease
  amount: number
  /** Served from a plan lease: the subscription its report charges (one of the lease's requests in flight), and the grant's end. */
  plan?: PlanRef
  until?: number
}

/** A flag set at `since` and not yet stale (a cancelled loop's flag never clears). */
const live = (since: number) => since > 0 && clockNow() - since < STALE_MS
/** A wallet call of the lease is in flight. */
const busy = (l: Lease) => live(l.sendingSince)

/**
 * Hold `amount` from the user's lease: at once when the lease covers it (no wallet call), else by
 * asking the wallet for a new or larger lease (a synchronous call, made only when no other call of
 * the lease is in flight). Undefined when the wallet cannot grant it or is busy with this lease: the
 * caller then reserves the exact way (and gets the precise refusal).
 */
export async function holdFromLease(
  wallet: LeaseWallet,
  ctx: ExecutionContext,
  who: { userId: number; tokenId: number; rpm: number; budget?: LimitSpec['budget']; debt?: DebtLimits; planTz?: string },
  amount: number
): Promise<LeaseHold | undefined> {
  const key = `${who.userId}:${who.tokenId}`
  let lease = leases.get(key)
  if (!lease) {
    lease = newLease(who.userId, who.tokenId)
    leases.set(key, lease)
  }
  Object.assign(lease, { budget: who.budget, debt: who.debt, planTz: who.planTz })
  if (!admitLocally(lease, who.rpm)) return undefined
  if (fits(lease, amount)) return take(wallet, ctx, lease, amount)
  // A grant needs the wallet. A call of this lease in flight (its answer may top the lease up, or a
  // top-up may have taken what is free) finishes first, then look again; the exact path only if it
  // does not finish soon.
  if (!(await pollUntil(() => !busy(lease)))) return undefined
  if (fits(lease, amount)) return take(wallet, ctx, lease, amount)
  // The call it waited for was refused with `plans_active`: no second ask (the exact path covers it).
  if (clockNow() < lease.plansUntil) return undefined
  if (!(await grow(wallet, lease, amount))) {
    // Refused while this lease still had costs on their way: the wallet counted the lease's hold as
    // it was before them (e.g. a budget period had just rolled over, and the old period's hold still
    // filled the new one). Look again once that report has landed; the exact path only after that.
    if (clockNow() < lease.plansUntil || !(await reportsLanded(lease))) return undefined
    if (!fits(lease, amount) && !(await grow(wallet, lease, amount))) return undefined
  }
  // What other requests queued while the grant was on its way goes out now, from this request.
  pump(wallet, ctx, lease)
  return fits(lease, amount) ? take(wallet, ctx, lease, amount) : undefined
}

/**
 * Wait until `done()` holds, polling this request's own 1 ms timer (never awaiting another request's
 * promise); false when it still does not hold after SENDING_POLLS polls.
 */
async function pollUntil(done: () => boolean): Promise<boolean> {
  for (let waited = 0; !done(); waited++) {
    if (waited >= SENDING_POLLS) return false
    await sleep(1)
  }
  return true
}

/**
 * Wait until the wallet has answered every report carrying the costs settled here so far, and no
 * call of the lease is in flight (so the caller may make one). False when nothing was on its way
 * (there is nothing to wait for) or the report does not land in time.
 */
async function reportsLanded(lease: Lease): Promise<boolean> {
  const target = lease.queue.length > 0 ? lease.seq + 1 : (lease.unanswered?.seq ?? 0)
  if (target <= lease.answered) return false
  return pollUntil(() => lease.answered >= target && !busy(lease))
}

function take(wallet: LeaseWallet, ctx: ExecutionContext, lease: Lease, amount: number): LeaseHold {
  lease.inflight += amount
  const plan = lease.plan
  if (plan) lease.inflightRequests++
  if ((available(lease) < lease.size / 2 || lowOnRequests(lease)) && lease.wanted === 0 && lease.wantedRequests === 0) {
    const now = Date.now()
    if (now - lease.toppedUpAt < FAST_TOPUP_MS) {
      lease.size = Math.max(lease.size, Math.min(lease.size * 2, amount * MAX_LEASE_REQUESTS))
      lease.requestSize = Math.min(lease.requestSize * 2, MAX_LEASE_REQUESTS)
    }
    lease.toppedUpAt = now
    lease.wanted = lease.size
    if (plan && lease.requests !== undefined) lease.wantedRequests = Math.max(1, lease.requestSize)
    pump(wallet, ctx, lease)
  }
  return { lease, amount, ...(plan ? { plan, until: lease.until } : {}) }
}

/**
 * The group's requests-per-minute limit, approximately: counted here and exactly at the wallet,
 * which says in each report when the user has reached it; from then until the minute ends this
 * isolate sends the user's requests the exact way (the wallet refuses them). Over-admission is
 * bounded by the requests one isolate admits while one report is on its way.
 */
function admitLocally(lease: Lease, rpm: number): boolean {
  lease.rpm = rpm
  if (clockNow() < lease.plansUntil) return false
  if (rpm <= 0) return true
  const minute = Math.floor(Date.now() / 60_000)
  if (lease.rate.minute !== minute) lease.rate = { minute, count: 0, blocked: false }
  if (lease.rate.blocked || lease.rate.count >= rpm) return false
  lease.rate.count++
  return true
}

/** Ask the wallet for a lease that covers `amount` more (the caller saw the lease idle). */
async function grow(wallet: LeaseWallet, lease: Lease, amount: number): Promise<boolean> {
  const want = Math.max(amount * LEASE_REQUESTS, lease.size)
  lease.sendingSince = clockNow()
  try {
    const floor = Math.max(0, amount - available(lease))
    const plan = lease.planTz ? { plan: { tz: lease.planTz, requests: Math.max(LEASE_REQUESTS, lease.requestSize) } } : {}
    const res = await wallet.lease({ userId: lease.userId, tokenId: lease.tokenId, leaseId: lease.id, amount: want, floor, budget: lease.budget, debt: lease.debt, ...plan })
    if (!res.ok && res.reason === 'plans_active') lease.plansUntil = clockNow() + PLANS_BACKOFF_MS
    if (!res.ok) return false
    applyAnswer(lease, res)
    lease.size = Math.max(lease.size, res.granted)
    if (res.requests !== undefined) lease.requestSize = Math.max(lease.requestSize, res.requests)
    lease.expiresAt = Date.now() + LOCAL_TTL_MS
    return true
  } catch (err) {
    serverLog.error('lease: the wallet did not answer', { lease: lease.id, error: err })
    return false
  } finally {
    lease.sendingSince = 0
  }
}

/** Every lease's unconfirmed requests in this isolate (the root system page counts them). */
export const unreportedItems = () => [...leases.values()].flatMap(unconfirmed)

/**
 * The request is done: give its hold back to the lease and queue its exact cost and log row. When the lease is idle this
 * request sends the queue (its promise answers the first batch); else the request already sending takes the row along.
 */
export function settleToLease(wallet: LeaseWallet, ctx: ExecutionContext, hold: LeaseHold, item: LeaseItem): Promise<LeaseSettleResult | undefined> {
  const { lease } = hold
  returnToLease(hold)
  const reported = hold.plan ? { ...item, plan: hold.plan, until: hold.until } : item
  lease.held -= item.quota
  if (lease.requests !== undefined && usesRequest(reported, lease.plan, lease.until)) lease.requests--
  lease.queue.push(reported)
  return pump(wallet, ctx, lease)
}

/** A hold's worst case (and plan request) back to its lease: it settled, or it moved to an exact hold untouched. */
export function returnToLease(hold: LeaseHold) {
  hold.lease.inflight -= hold.amount
  if (hold.plan) hold.lease.inflightRequests--
}

/**
 * When no call of the lease is in flight, send what is queued (and any wanted top-up) with this request's stub, then keep
 * sending what arrives meanwhile, all inside this request's waitUntil. Answers the first batch's result (undefined when
 * another request is sending, or on failure).
 */
function pump(wallet: LeaseWallet, ctx: ExecutionContext, lease: Lease): Promise<LeaseSettleResult | undefined> {
  if (live(lease.pumpingSince) || !hasWork(lease)) return Promise.resolve(undefined)
  if (lease.pumpingSince > 0) serverLog.error('lease: a report loop was cancelled; starting another', { lease: lease.id })
  const gen = ++lease.pumpGen
  const started = clockNow()
  lease.pumpingSince = started
  const first = nextReport(wallet, lease)
  const run = (async () => {
    try {
      await cancellable(started, first)
      while (lease.pumpGen === gen && hasWork(lease)) {
        if (clockNow() - started >= PUMP_BUDGET_MS) {
          // Hand over: requests settling from now on start their own loop; what was queued before goes now.
          lease.pumpingSince = 0
          await cancellable(started, sendNow(wallet, lease))
          break
        }
        await cancellable(started, nextReport(wallet, lease))
      }
    } finally {
      if (lease.pumpGen === gen) {
        lease.pumpingSince = 0
        lease.running = undefined
      }
    }
  })()
  lease.running = run
  ctx.waitUntil(run.catch((err) => serverLog.error('lease: report failed; kept for the next batch', { lease: lease.id, error: err })))
  return first.catch(() => undefined)
}

const hasWork = (l: Lease) => l.queue.length > 0 || l.wanted > 0 || l.wantedRequests > 0 || l.unanswered !== undefined

/** The loop's last report after its hand-over: at once (no gathering), unless a newer loop took everything. */
async function sendNow(wallet: LeaseWallet, lease: Lease): Promise<unknown> {
  if (!(await pollUntil(() => !busy(lease)))) return undefined
  return hasWork(lease) ? sendBatch(wallet, lease) : undefined
}

/**
 * Tests only: the runtime's cancellation of waitUntil work, which Miniflare does not enforce. A loop
 * older than `ms` at one of its waits never resumes (its `finally` never runs), as on Cloudflare.
 */
let cancelAfterMs: number | undefined
export function cancelReportLoopsAfter(ms: number | undefined) {
  cancelAfterMs = ms
}
const cancellable = async <T>(started: number, work: Promise<T>): Promise<T> => {
  const value = await work
  if (cancelAfterMs !== undefined && clockNow() - started > cancelAfterMs) await new Promise<never>(() => {})
  return value
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** The loop's next report: wait a moment for more requests to settle (not when the batch is full or a top-up is due), and while a grant is in flight. */
async function nextReport(wallet: LeaseWallet, lease: Lease): Promise<LeaseSettleResult> {
  if (lease.wanted === 0 && lease.wantedRequests === 0 && lease.queue.length < REPORT_MAX_ITEMS) await sleep(REPORT_GATHER_MS)
  for (let waited = 0; busy(lease); waited++) {
    if (waited >= 5_000) throw new Error('another wallet call of this lease did not finish')
    await sleep(SENDING_WAIT_MS)
  }
  return sendBatch(wallet, lease)
}

/**
 * One report: the queued items and any top-up. When its answer does not arrive (the wallet may or
 * may not have applied it), the same report — same number, same items — goes again before anything
 * newer, so the wallet, which applies each number once, charges every item exactly once.
 */
async function sendBatch(wallet: LeaseWallet, lease: Lease): Promise<LeaseSettleResult> {
  const report = lease.unanswered ?? { seq: ++lease.seq, items: lease.queue.splice(0), extend: lease.wanted, extendRequests: lease.wantedRequests }
  if (!lease.unanswered) {
    lease.wanted = 0
    lease.wantedRequests = 0
  }
  lease.unanswered = report
  const { seq, items, extend, extendRequests } = report
  const since = clockNow()
  lease.sendingSince = since
  let res: LeaseSettleResult
  try {
    const more = { ...(extend ? { extend } : {}), ...(extendRequests ? { extendRequests } : {}) }
    res = await wallet.settleLease({ userId: lease.userId, leaseId: lease.id, items, rpm: lease.rpm, seq, ...more })
  } finally {
    if (lease.sendingSince === since) lease.sendingSince = 0
  }
  lease.unanswered = undefined
  lease.answered = Math.max(lease.answered, seq)
  if (!res.ok) {
    serverLog.error('lease: the wallet refused a report', { lease: lease.id, reason: res.reason })
    return res
  }
  applyAnswer(lease, res)
  if (res.rateLimited) lease.rate.blocked = true
  noteWalletFull(res.full)
  if (res.held === 0 && extend === 0) lease.expiresAt = 0
  else lease.expiresAt = Date.now() + LOCAL_TTL_MS
  return res
}

/** Give back every lease of this isolate (tests, and an isolate that wants its money returned). */
export async function releaseLeases(env: Env): Promise<void> {
  const all = [...leases.values()]
  leases.clear()
  await Promise.all(
    all.map(async (lease) => {
      await lease.running?.catch(() => undefined)
      const wallet = walletOf(env, lease.userId)
      if (lease.unanswered) await sendBatch(wallet, lease)
      await wallet.settleLease({ userId: lease.userId, leaseId: lease.id, items: lease.queue.splice(0), release: true, seq: ++lease.seq })
    })
  )
}
