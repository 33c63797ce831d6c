/**
 * Money and channels for asynchronous tasks (Midjourney, Suno, Kling). A submit picks a channel of the
 * task's supplier type that lists the action's price name (when the API key's model whitelist
 * allows that name), prices it as a `times` price × the group ratio, reserves that in the user's
 * wallet — under the API key's own limits (requests per minute, per-model limits, concurrent
 * submits, budget; token-limits.ts), as on the relay, the user's subscriptions covering it first
 * (one request, or the price, of their windows) — then settles it when the upstream accepts the
 * task or refunds it when the upstream refuses. A plan-covered submit's row keeps what it drew from
 * (`plan_charge`, TaskPlanCharge). A task that FAILS later is refunded under the key
 * `task-refund:<platform>:<row id>`, so the poller, the client's fetch and the timeout can race and
 * the user still gets it back exactly once (one log row): to the balance by a wallet credit, or to
 * the subscription's windows while they are still the charge's (wallet-plan-refund.ts).
 */
import type { Context } from 'hono'
import { Charge, chargeContext, type Hold, isRefusal, taskRefundKey } from '../billing/charge'
import { getPriceTable } from '../billing/pricing'
import { perCallQuota } from '../billing/per-call'
import { ApiError, type ErrorStatus } from '../lib/errors'
import { nowSeconds } from '../lib/time'
import { clockNow } from '../lib/clock'
import { getSettings } from '../settings/store'
import { debtLimits } from '../billing/debt-limits'
import { pickChannelFor, probeOutcome, type ChannelPick } from '../channels/probe-pick'
import type { RoutingTable } from '../channels/routing-table'
import type { RoutedChannel } from '../channels/types'
import { notifyTaskFinished } from '../telegram/notify'
import { assertModelAllowed, type RelayAuth } from '../access/token-auth'
import { tokenlessSpec } from '../access/token-limits'
import { walletRefusal } from '../access/wallet-refusals'
import type { RefusalReason, WalletLog } from '../wallet/wallet-types'
import type { HonoEnv } from '../env'
import { walletOf } from '../wallet/wallet-client'
import { LOG_TYPE } from '../../shared/contract/enums'
import { logger } from '../lib/logger'

const serverLog = logger({ module: 'task-charge' })

export type TaskPlatform = 'mj' | 'suno' | 'kling'

const PLATFORM_NAME: Record<TaskPlatform, string> = { mj: 'Midjourney', suno: 'Suno', kling: 'Kling' }

/**
 * A refusal from the wallet, in the caller's envelope: the relay's (access/wallet-refusals.ts), with the
 * task's own words for a balance too low and the task's code for each reason.
 */
function taskRefusal(reason: RefusalReason, retryAfterMs?: number, headers?: Record<string, string>): ApiError {
  if (reason === 'insufficient_user_quota') return new ApiError(429, 'Your balance is too low for this task.', { code: reason })
  const err = walletRefusal(reason, retryAfterMs, headers)
  return new ApiError(err.status as ErrorStatus, err.message, { code: reason, type: err.type, headers: err.headers })
}

/**
 * Pick an enabled channel of `type` serving `model` in the caller's group (or the pinned one),
 * through the breakers as on the relay (channels/probe-pick.ts: a half-open channel gets one
 * probe, decided by TaskCharge's settle or refund). Every submit (Midjourney, Suno, Kling) starts
 * here, so this is where the API key's model whitelist is enforced, before any channel or money is
 * touched, as the relay does.
 */
export function pickTaskChannel(table: RoutingTable, auth: RelayAuth, type: number, model: string, pinned?: number): ChannelPick {
  assertModelAllowed(auth, model)
  const pin = pinned ?? auth.pinChannel
  if (pin !== undefined) {
    const ch = table.channels[pin]
    if (!ch || ch.type !== type) throw new ApiError(503, `Channel ${pin} is not available for this task.`, { code: 'channel_unavailable' })
    return { channel: ch, model, probes: [] }
  }
  const tried = new Set(auth.excludeChannel === undefined ? [] : [auth.excludeChannel])
  const pick = pickChannelFor(table, `user:${auth.userId}`, { group: auth.group, model, tried, accept: (ch) => ch.type === type })
  if (!pick) throw new ApiError(503, `No available channel for "${model}" in group "${auth.group}".`, { code: 'model_not_available' })
  return pick
}

/**
 * What a plan-covered submit drew from (the task row's `plan_charge`, JSON): the subscription, its
 * model item, the time zone its windows roll in, and the second of its consume row (Unix s), which
 * fixes the windows it counted in.
 */
export interface TaskPlanCharge {
  sub: number
  item?: number
  tz: string
  at: number
}

/** A row's `plan_charge` read back: undefined for '' (the balance), null when it is not one. */
export function readPlanCharge(raw: string | undefined): TaskPlanCharge | undefined | null {
  if (!raw) return undefined
  try {
    const p = JSON.parse(raw) as TaskPlanCharge
    const ok = Number.isSafeInteger(p?.sub) && typeof p.tz === 'string' && Number.isSafeInteger(p.at) && (p.item === undefined || Number.isSafeInteger(p.item))
    return ok ? p : null
  } catch {
    return null
  }
}

/** One submit's charge: reserve → (settle | refund), on the one Charge (billing/charge.ts). */
export class TaskCharge {
  private readonly charge: Charge
  private hold: Hold | undefined
  /** The second of the consume row of a plan-covered submit, fixed when its row is written (planCharge). */
  private chargedAt: number | undefined
  quota = 0

  constructor(
    private readonly c: Context<HonoEnv>,
    private readonly auth: RelayAuth,
    readonly model: string,
    private readonly pick: ChannelPick
  ) {
    this.charge = new Charge(chargeContext(c, auth, model))
    this.channel = pick.channel
  }

  readonly channel: RoutedChannel

  /** The pick's breaker outcome, once: an accepted task closes a half-open channel, a refused one re-opens the probe's breakers. */
  private decided = false
  private async decide(ok: boolean, message: string) {
    if (this.decided) return
    this.decided = true
    const { env, executionCtx } = this.c
    if (ok) return probeOutcome(env, executionCtx, this.pick, { ok: true })
    if (this.pick.probes.length === 0) return
    const settings = await getSettings(env, executionCtx)
    probeOutcome(env, executionCtx, this.pick, { ok: false, message, cooldownSeconds: settings.int('RetryCooldownSeconds') })
  }

  /** Price the task (a missing price is refused, never billed silently) and hold it in the wallet. */
  async reserve({ free = false, counted = false }: { free?: boolean; counted?: boolean } = {}): Promise<void> {
    const [settings, prices] = await Promise.all([getSettings(this.c.env, this.c.executionCtx), getPriceTable(this.c.env, this.c.executionCtx)])
    const rpm = this.auth.groupRates.rpm
    const priced = perCallQuota(settings, prices, this.auth.group, [this.model], { defaultPrice: true })
    if ('refused' in priced && priced.refused === 'group_not_found')
      throw new ApiError(403, `The group "${this.auth.group}" is not configured on this gateway.`, { code: 'group_not_found' })
    if ('refused' in priced) throw new ApiError(400, `"${this.model}" has no price on this gateway; ask the administrator to set one.`, { code: 'model_not_priced' })
    this.quota = free ? 0 : priced.quota
    // The API key's limits, as on the relay: a submit counts as one request of no tokens, once —
    // a second attempt of the same submit (`counted`, Midjourney's relax fallback) keeps the budget only.
    const tz = settings.str('BudgetTimezone') || 'UTC'
    const limits = tokenlessSpec({ tokenId: this.auth.id, userId: this.auth.userId, limits: this.auth.limits }, this.model, tz, counted)
    // The user's subscriptions cover a submit first, as they do a relay request (one request, or the price).
    const held = await this.charge.open({ amount: this.quota, limits, admit: true, rpm, debt: debtLimits(settings), planTz: tz })
    if (isRefusal(held)) throw taskRefusal(held.reason, held.retryAfterMs, held.headers)
    this.hold = held
  }

  /**
   * The task row's `plan_charge`: '' when the balance holds the submit, else what it draws from
   * (TaskPlanCharge), with the second its consume row will carry — fixed now, so the row is written
   * with it before the settle and a failure racing the settle already finds where to give it back.
   */
  planCharge(): string {
    const plan = this.hold?.plan
    if (!plan) return ''
    this.chargedAt ??= Math.floor(clockNow() / 1000)
    return JSON.stringify({ sub: plan.sub, ...(plan.item !== undefined ? { item: plan.item } : {}), tz: plan.tz, at: this.chargedAt } satisfies TaskPlanCharge)
  }

  private log(type: number, content: string, meta: Record<string, unknown>): WalletLog {
    return this.charge.logRow(type, { content, channelId: this.channel.id }, { group: this.auth.group, ...meta })
  }

  /** The upstream accepted the task: charge it in full, with its consume log row. */
  async settle(taskRef: string, meta: Record<string, unknown> = {}): Promise<void> {
    const log = this.log(LOG_TYPE.CONSUME, `Task ${taskRef} submitted`, meta)
    // A plan-covered submit's row carries the second its task row names (the windows it counts in).
    if (this.chargedAt !== undefined) log.createdAt = this.chargedAt
    await this.charge.settle(this.hold, { quota: this.quota, channelId: this.channel.id, log })
    await this.decide(true, '')
  }

  /** The upstream refused the task (or could not be reached): release the hold, with an error row. */
  async refund(message: string, meta: Record<string, unknown> = {}): Promise<void> {
    await this.charge.refund(this.hold, this.log(LOG_TYPE.ERROR, message.slice(0, 1000), meta))
    await this.decide(false, message)
  }
}

export interface FailedTask {
  platform: TaskPlatform
  /** The gateway's row id. */
  id: number
  userId: number
  tokenId: number
  channelId: number
  quota: number
  action: string
  reason: string
  /** The row's `plan_charge`: '' (or absent) when the balance paid. */
  planCharge?: string
}

/**
 * Give a failed task's charge back where it came from, once per task whatever races: the balance by
 * an idempotent wallet credit, a subscription's windows by the wallet's refundToPlan under the same key.
 */
export async function refundFailedTask(env: Env, task: FailedTask): Promise<void> {
  if (task.quota <= 0) return
  const plan = readPlanCharge(task.planCharge)
  if (plan === null) {
    // Never guessed into the balance: a plan charge that cannot be read is left for an administrator.
    serverLog.error('task refund skipped: unreadable plan charge', { platform: task.platform, task_id: task.id })
    return
  }
  if (plan) return refundToSubscription(env, task, plan)
  const result = await walletOf(env, task.userId).credit({
    userId: task.userId,
    amount: task.quota,
    key: taskRefundKey(task.platform, task.id),
    restoreToken: task.tokenId || undefined,
    log: {
      type: LOG_TYPE.SYSTEM,
      createdAt: nowSeconds(),
      content: `${PLATFORM_NAME[task.platform]} task ${task.id} (${task.action}) failed; refunded ${task.quota}: ${task.reason}`.slice(0, 1000),
      tokenId: task.tokenId,
      channelId: task.channelId,
      metadata: { task_refund: true, platform: task.platform, task_id: task.id },
    },
  })
  if (!result.ok) serverLog.error('task refund refused', { platform: task.platform, task_id: task.id, reason: result.reason })
}

async function refundToSubscription(env: Env, task: FailedTask, plan: TaskPlanCharge): Promise<void> {
  const result = await walletOf(env, task.userId).refundToPlan({
    userId: task.userId,
    amount: task.quota,
    key: taskRefundKey(task.platform, task.id),
    plan: { sub: plan.sub, tz: plan.tz, ...(plan.item !== undefined ? { item: plan.item } : {}) },
    at: plan.at * 1000,
    restoreToken: task.tokenId || undefined,
    log: {
      type: LOG_TYPE.SYSTEM,
      createdAt: nowSeconds(),
      content: `${PLATFORM_NAME[task.platform]} task ${task.id} (${task.action}) failed; its ${task.quota} go back to subscription #${plan.sub}: ${task.reason}`.slice(0, 1000),
      tokenId: task.tokenId,
      channelId: task.channelId,
      metadata: { task_refund: true, platform: task.platform, task_id: task.id },
    },
  })
  if (!result.ok) serverLog.error('task plan refund refused', { platform: task.platform, task_id: task.id, reason: result.reason })
}

/** A task update just written: the row as it was, and what it became. */
export interface WrittenTaskUpdate {
  platform: TaskPlatform
  /** Names the task in the owner's Telegram notice, e.g. `Midjourney IMAGINE`. */
  label: string
  /** The upstream's task id, shown in the notice. */
  upstreamId: string
  row: { id: number; user_id: number; token_id: number; channel_id: number; quota: number; action: string; plan_charge?: string }
  status: string
  progress: string
  failReason: string
  failed: boolean
}

/** A task row that failed, as its refund reads it. */
export function failedTaskOf(platform: TaskPlatform, row: WrittenTaskUpdate['row'], reason: string): FailedTask {
  return {
    platform,
    id: row.id,
    userId: row.user_id,
    tokenId: row.token_id,
    channelId: row.channel_id,
    quota: row.quota,
    action: row.action,
    reason,
    planCharge: row.plan_charge,
  }
}

/** After a task update is written: a failed task is refunded (once), a finished one announced to its owner. */
export async function settleTaskUpdate(env: Env, t: WrittenTaskUpdate): Promise<void> {
  const { row } = t
  if (t.failed) await refundFailedTask(env, failedTaskOf(t.platform, row, t.failReason || 'failed'))
  if (t.progress === '100%') await notifyTaskFinished(env, row.user_id, t.label, t.upstreamId, t.status, t.failReason)
}
