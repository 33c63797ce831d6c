/**
 * Where one relay request is routed: the model being tried (the requested one, then its fallbacks,
 * model-fallbacks.ts), the channels tried for it, the next channel (channels/pick.ts, skipping
 * frozen, tried and plugin-disabled ones, and once a subscription limited to channel tags covered
 * the hold, those without one of its tags) and the price it is billed at. relay-request.ts drives
 * it; the money side of a model change is relay-money.ts `refit`.
 */
import type { ModelPrice } from '../billing/formula'
import { resolvePrice, type PriceTable } from '../billing/pricing'
import { ApiError } from '../lib/errors'
import type { RelayAuth } from '../access/token-auth'
import type { Settings } from '../settings/store'
import { isFrozenFor, refreshFreezes } from '../channels/health'
import { servingTags, tagFilter } from '../channels/tag-scope'
import { pickChannelFor } from '../channels/probe-pick'
import { candidatesFor, type RoutingTable } from '../channels/routing-table'
import type { RoutedChannel } from '../channels/types'
import { mapModel, usableChannels } from '../channels/pick'
import { pluginDisables } from '../providers/plugins'
import type { RelayInput } from './relay-input'
import { modelChain } from './model-fallbacks'

export interface Routed {
  channel: RoutedChannel
  price: ModelPrice
  billed: string
}

export class RelayRoute {
  /** Channel ids tried (or excluded) for the current model. */
  tried = new Set<number>()
  /** The requested model then its fallbacks; `model` is the one being tried, at `index`. */
  private readonly chain: string[]
  index = 0
  model: string
  /** Only channels this accepts are picked: those with a tag of the subscription that covered the hold (limitTo). */
  private accept: ((channel: RoutedChannel) => boolean) | undefined

  constructor(
    private readonly env: Env,
    private readonly ctx: ExecutionContext,
    private readonly auth: RelayAuth,
    private readonly input: RelayInput,
    private readonly settings: Settings,
    private readonly prices: PriceTable,
    private readonly table: RoutingTable,
    /** Sticky routing key (affinity.ts), when the setting is on and the body has one. */
    private readonly affinity: string | undefined
  ) {
    this.chain = modelChain(settings, auth, input)
    this.model = input.model
    this.resetTried()
  }

  private resetTried() {
    this.tried = new Set(this.auth.excludeChannel !== undefined ? [this.auth.excludeChannel] : [])
  }

  /** Whether a model after the current one is left to fall back to. */
  get hasNext(): boolean {
    return this.index + 1 < this.chain.length
  }

  /**
   * The first model of the chain from `from` with a usable channel and a price, made current. When
   * none has one, the first of those models' refusal (no channel, no price) is thrown.
   */
  routeFrom(from: number): Routed {
    let refusal: unknown
    for (let i = from; i < this.chain.length; i++) {
      this.model = this.chain[i]!
      this.index = i
      if (i > 0) this.resetTried()
      try {
        const channel = this.pick()
        return { channel, ...this.priceFor(channel) }
      } catch (err) {
        if (!(err instanceof ApiError)) throw err
        refusal ??= err
      }
    }
    throw refusal
  }

  /**
   * The tags of the channels that could serve the current model now (any subscription's limit
   * aside): what the hold request names, so a plan limited to channel tags may cover it.
   */
  servingTags(): string[] {
    if (this.auth.pinChannel !== undefined) return servingTags([this.table.channels[this.auth.pinChannel]].filter((ch) => ch !== undefined))
    const opts = { group: this.auth.group, model: this.model, tried: this.tried, hasTools: this.input.hasTools }
    return servingTags(usableChannels(this.table, { ...opts, isFrozen: isFrozenFor(`user:${this.auth.userId}`) }))
  }

  /**
   * From now on pick only channels with one of `tags` (a subscription limited to channel tags
   * covered the hold; none: any channel), and `channel` itself when it has one — else another
   * channel of the model with one, or undefined when there is none.
   */
  limitTo(tags: string[], channel: RoutedChannel): RoutedChannel | undefined {
    this.accept = tagFilter(tags)
    return !this.accept || this.accept(channel) ? channel : this.pickOrNone()
  }

  pickOrNone(): RoutedChannel | undefined {
    if (this.auth.pinChannel !== undefined) {
      const pinned = this.table.channels[this.auth.pinChannel]
      return pinned && !this.tried.has(pinned.id) && (!this.accept || this.accept(pinned)) ? pinned : undefined
    }
    const candidates = candidatesFor(this.table, this.auth.group, this.model)
    // A Custom channel whose plugin turned this operation off is no candidate for it.
    for (const ch of candidates) if (pluginDisables(ch, this.input.op)) this.tried.add(ch.id)
    refreshFreezes(
      this.env,
      this.ctx,
      candidates.map((ch) => ch.id)
    )
    return pickChannelFor(this.table, `user:${this.auth.userId}`, {
      group: this.auth.group,
      model: this.model,
      tried: this.tried,
      hasTools: this.input.hasTools,
      affinity: this.affinity,
      ...(this.accept ? { accept: this.accept } : {}),
    })?.channel
  }

  /** The price of `model` itself (a cache hit, which no channel answers), or undefined when unpriced. */
  priceOf(model: string): ModelPrice | undefined {
    return resolvePrice(this.prices, model, this.settings)
  }

  private pick(): RoutedChannel {
    const channel = this.pickOrNone()
    if (channel) return channel
    if (this.auth.pinChannel !== undefined) {
      throw new ApiError(503, `Channel ${this.auth.pinChannel} is not enabled.`, { code: 'channel_unavailable' })
    }
    throw new ApiError(503, `No available channel for model "${this.model}" in group "${this.auth.group}".`, {
      code: 'model_not_available',
      param: 'model',
    })
  }

  priceFor(channel: RoutedChannel): { price: ModelPrice; billed: string; upstream: string } {
    const { upstream, billed } = mapModel(channel, this.model)
    const price = resolvePrice(this.prices, billed, this.settings)
    if (!price) {
      throw new ApiError(400, `The model "${billed}" has no price on this gateway; ask the administrator to set one.`, {
        code: 'model_not_priced',
        param: 'model',
      })
    }
    return { price, billed, upstream }
  }
}
