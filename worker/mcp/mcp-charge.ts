/**
 * Money for one MCP tool call: priced by the `times` price `mcp/<server>/<tool>` (else the server's
 * default `mcp/<server>/*`) × the group ratio (billing/per-call.ts; a free server costs 0, an
 * unpriced tool of another server is refused), held under the API key's limits like a relay
 * request (the user's subscriptions cover it first, one request each — except plans limited to
 * channel tags: no channel serves a tool call, so the hold names no tag), then settled with one
 * consume row, or given back with one error row when the server fails. Rows name the tool, server, duration, status and argument size — never the arguments.
 */
import type { Context } from 'hono'
import { Charge, chargeContext, type Hold, isRefusal } from '../billing/charge'
import { debtLimits } from '../billing/debt-limits'
import { perCallQuota } from '../billing/per-call'
import { getPriceTable } from '../billing/pricing'
import type { RelayAuth } from '../access/token-auth'
import { tokenlessSpec } from '../access/token-limits'
import { walletRefusal } from '../access/wallet-refusals'
import { ApiError } from '../lib/errors'
import { clockNow } from '../lib/clock'
import { getSettings } from '../settings/store'
import type { HonoEnv } from '../env'
import { LOG_TYPE } from '../../shared/contract/enums'

/** The price name of a tool (and, with `*`, the server's default). */
export const mcpPriceName = (server: string, tool: string) => `mcp/${server}/${tool}`

export type McpCallStatus = 'ok' | 'tool_error' | 'error' | 'timeout'

export class McpCharge {
  private readonly charge: Charge
  private hold: Hold | undefined
  private quota = 0
  private readonly startedAt = clockNow()

  constructor(
    private readonly c: Context<HonoEnv>,
    private readonly auth: RelayAuth,
    private readonly server: string,
    private readonly tool: string,
    private readonly argBytes: number,
    /** The JSON-RPC id of the call: several calls of one HTTP request each get their own key. */
    callId: string | number
  ) {
    const context = chargeContext(c, auth, mcpPriceName(server, tool))
    context.reqId = `${context.reqId}:mcp:${callId}`
    this.charge = new Charge(context)
  }

  /** Price the call (refused when unpriced and the server is not free) and hold it under the key's limits. */
  async open(free: boolean): Promise<void> {
    const { env, executionCtx } = this.c
    const [settings, prices] = await Promise.all([getSettings(env, executionCtx), getPriceTable(env, executionCtx)])
    const rpm = this.auth.groupRates.rpm
    const name = mcpPriceName(this.server, this.tool)
    const priced = perCallQuota(settings, prices, this.auth.group, [name, mcpPriceName(this.server, '*')], { free })
    if ('refused' in priced && priced.refused === 'group_not_found')
      throw new ApiError(403, `The group "${this.auth.group}" is not configured on this gateway.`, { code: 'group_not_found' })
    if ('refused' in priced) throw new ApiError(400, `The tool "${name}" has no price on this gateway; ask the administrator to set one.`, { code: 'model_not_priced' })
    this.quota = priced.quota
    const tz = settings.str('BudgetTimezone') || 'UTC'
    const limits = tokenlessSpec({ tokenId: this.auth.id, userId: this.auth.userId, limits: this.auth.limits }, name, tz)
    // The user's subscriptions cover a tool call first, as they do a relay request (one request each).
    const held = await this.charge.open({ amount: this.quota, limits, admit: true, rpm, debt: debtLimits(settings), planTz: tz })
    if (isRefusal(held)) throw walletRefusal(held.reason, held.retryAfterMs, held.headers)
    this.hold = held
  }

  private row(type: number, status: McpCallStatus, content: string) {
    const durationMs = clockNow() - this.startedAt
    return this.charge.logRow(
      type,
      { content, requestTime: durationMs },
      { group: this.auth.group, mcp_server: this.server, mcp_tool: this.tool, mcp_status: status, duration_ms: durationMs, arguments_bytes: this.argBytes }
    )
  }

  /** The server ran the tool (a tool's own error counts: it ran): charge the price. */
  async settle(status: 'ok' | 'tool_error'): Promise<void> {
    await this.charge.settle(this.hold, { quota: this.quota, log: this.row(LOG_TYPE.CONSUME, status, `MCP ${this.server}__${this.tool}`) })
  }

  /** The server failed or timed out: give the hold back, with an error row. */
  async refund(status: 'error' | 'timeout', message: string): Promise<void> {
    await this.charge.refund(this.hold, this.row(LOG_TYPE.ERROR, status, message.slice(0, 1000)))
  }
}
