/**
 * Bounded debt: what a supplier that ignores the limit it is sent (or misreports usage) can make
 * one user owe. A user's overruns — cost beyond each request's own hold — add up per UTC day in the
 * wallet's storage; once they pass MaxUserOverrun the user may hold nothing more until a credit
 * (a top-up, a redemption, an admin's adjustment) clears the stop, and the crossing leaves one
 * system log row (quota 0) saying so, which root sees in the logs. MaxUserOpenRequests caps the
 * exact reservations holding money a user may have open at once (the relay caps its lease-served requests per
 * isolate the same way). The worker sends both settings with each call (0 = no cap).
 */
import { LOG_TYPE } from '../../shared/contract/enums'
import { clockNow } from '../lib/clock'
import type { DebtLimits, RefusalReason } from './wallet-types'
import type { WalletStore } from './wallet-store'

interface OverrunDay {
  /** UTC day number of `sum`. */
  day: number
  sum: number
  /** Set when the sum passed the cap; cleared only by a credit. */
  stopped: boolean
}

const KEY = 'O'

export class DebtBook {
  constructor(private readonly store: WalletStore) {}

  private read(now: number): OverrunDay {
    const day = Math.floor(now / 86_400_000)
    const saved = this.store.kv.get<OverrunDay>(KEY)
    return saved && saved.day === day ? saved : { day, sum: 0, stopped: saved?.stopped ?? false }
  }

  /** Why a new hold is refused under these limits, if it is. */
  refusal(limits: DebtLimits | undefined, isRequest: boolean): RefusalReason | undefined {
    if (!limits) return undefined
    if (limits.maxOverrun > 0 && this.read(clockNow()).stopped) return 'overrun_limit'
    if (isRequest && limits.maxOpen > 0) {
      let open = 0
      // Zero holds (a realtime session's slots) put no money at risk: only requests holding money count.
      for (const h of this.store.holds().values()) if (!h.lease && h.amount > 0) open++
      if (open >= limits.maxOpen) return 'too_many_open_requests'
    }
    return undefined
  }

  /** Count an overrun; the first time today's sum passes `max`, stop the user and log why. */
  add(amount: number, max: number | undefined, username: string | undefined) {
    if (amount <= 0) return
    const now = clockNow()
    const s = this.read(now)
    s.sum += amount
    const crossed = !!max && max > 0 && !s.stopped && s.sum > max
    if (crossed) s.stopped = true
    this.store.kv.put(KEY, s)
    if (!crossed) return
    const content = `Stopped until the next top-up: requests cost ${s.sum} units beyond their holds today, over MaxUserOverrun (${max}). A supplier may be ignoring output limits or misreporting usage.`
    this.store.appendLog({ type: LOG_TYPE.SYSTEM, createdAt: Math.floor(now / 1000), username, content, metadata: { overrun_today: s.sum, max_user_overrun: max } }, 0)
  }

  /** A credit arrived: the user may hold again. */
  clear() {
    if (this.store.kv.get(KEY)) this.store.kv.delete(KEY)
  }
}
