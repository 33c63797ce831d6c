/**
 * Holds that outlived their time: a request hold not settled within an hour is charged in full (its
 * request never reported back; a late settle then charges only the difference, `X:` keys), and a
 * credit lease not heard from within two minutes is given back unspent (its isolate died or went
 * idle) — each with its log row. An expired plan hold is charged to its subscription's windows. The wallet's alarm runs this before each write-behind.
 */
import type { LimitBook } from './wallet-limits'
import type { AppliedReport, Reservation, UserState } from './wallet-state'
import type { WalletStore } from './wallet-store'
import type { WalletPlans } from './wallet-plans'
import { clockNow } from '../lib/clock'
import { LOG_TYPE } from '../../shared/contract/enums'

const RESERVATION_TTL_MS = 60 * 60 * 1000
/** A lease not heard from for this long is given back (its isolate died or went idle). */
const LEASE_TTL_MS = 2 * 60 * 1000

/** When a hold expires (ms): a lease two minutes after its last contact, a request hold after an hour. */
export const holdExpiresAt = (r: Reservation) => r.at + (r.lease ? LEASE_TTL_MS : RESERVATION_TTL_MS)

/** Applied-report markers of ended leases are kept this long (an isolate resends a lost report within seconds). */
const REPORT_MARKER_TTL_MS = 24 * 60 * 60 * 1000

/** Forget the report numbers of leases that ended more than a day ago (at most once an hour per wallet instance). */
function sweepReportMarkers(store: WalletStore, now: number) {
  if (now - store.markersSweptAt < 60 * 60 * 1000) return
  store.markersSweptAt = now
  const holds = store.holds()
  for (const [key, marker] of store.kv.list<AppliedReport>({ prefix: 'S:' })) {
    if (now - marker.at > REPORT_MARKER_TTL_MS && !holds.has(key.slice(2))) store.kv.delete(key)
  }
}

export async function expireHolds(store: WalletStore, limits: LimitBook, plans: WalletPlans): Promise<void> {
  const known = store.user ?? store.kv.get<UserState>('user')
  const user = known && (await store.ensureUser(known.id))
  if (!user) return
  await plans.ensure(user.id)
  const now = Date.now()
  sweepReportMarkers(store, now)
  for (const [reqId, r] of [...store.holds()]) {
    if (now < holdExpiresAt(r)) continue
    store.release(reqId)
    if (r.lease) {
      // Nothing was charged by holding it: the rest goes back (a row with quota 0 says so).
      store.appendLog(
        {
          type: LOG_TYPE.SYSTEM,
          createdAt: Math.floor(now / 1000),
          tokenId: r.tokenId,
          requestId: reqId,
          content: `Credit lease expired unused for ${LEASE_TTL_MS / 60_000} minutes: ${r.amount} units returned to ${r.plan ? `subscription #${r.plan.sub}` : 'the balance'}`,
          metadata: { lease: reqId, returned: r.amount },
        },
        0
      )
      continue
    }
    limits.settle(reqId, 0)
    const createdAt = Math.floor(clockNow() / 1000)
    // A plan hold is charged to its subscription's windows (`XP:` tells the late settle), not the balance.
    store.charge(user, await store.ensureToken(r.tokenId), r.amount, true, createdAt * 1000, !r.plan)
    if (r.plan) {
      plans.charge(r.plan, r.amount, 1, createdAt * 1000, clockNow())
      store.kv.put(`XP:${reqId}`, r.plan)
    }
    store.kv.put(`X:${reqId}`, r.amount)
    store.appendLog(
      {
        type: LOG_TYPE.CONSUME,
        createdAt,
        tokenId: r.tokenId,
        requestId: reqId,
        content: 'Reservation settled on expiry: the request did not report its usage within an hour, so the reserved amount was charged',
        metadata: { reserved: r.amount, reserved_at: Math.floor(r.at / 1000) },
        ...(r.plan ? { subscriptionId: r.plan.sub } : {}),
      },
      r.amount
    )
  }
}
