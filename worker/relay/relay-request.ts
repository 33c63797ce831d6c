/**
 * What happens to a relay request, in order:
 *  1. admit the API key (access/admit.ts: the key, its group and the group's limits) and read the body (relay-input.ts);
 *  2. check the model whitelist and the group ratio; answer from the response cache when allowed;
 *  3. pick a channel (channels/pick.ts) and its price; refuse unpriced models;
 *  4. check the token's limits (access/token-limits.ts: RPM, TPM, concurrency, per-model; 429 with
 *     Retry-After) and reserve the request's worst case in the user's wallet Durable Object
 *     (reservation.ts; 429 when it does not fit the balance or the token's budget, or when the
 *     group's requests-per-minute limit is reached) — a client that set no max_tokens gets the
 *     answer capped at what the balance can pay; the answer carries the x-ratelimit-* headers; a
 *     subscription limited to channel tags that covered the hold limits the channels to its tags;
 *  5. call the upstream through the channel's adapter (prompt image URLs fetched and sent inline
 *     first when the channel needs it, prompt-images.ts); on a retriable failure freeze the
 *     (channel, model) — for everyone once two users failed, else for this user —, maybe auto-disable
 *     the channel, and try the next channel (retry-policy.ts, failure-report.ts); a 429 saying the
 *     request itself is too large ends it as the client's error (oversized-request.ts);
 *     when every channel of the model failed (or none serves it) the request goes on with the
 *     next model of its fallbacks (model-fallbacks.ts), billed at that model's price;
 *  6. answer the client (JSON, raw or a stream) and settle the exact cost with its log row in the
 *     background; on final failure refund everything and log the error.
 * How money moves in 4 and 6 (lease or exact reservation, settle, refund, log rows) is relay-money.ts.
 */
import type { Context } from 'hono'
import { sanitizeUsage, type Usage } from '../billing/formula'
import { getPriceTable, groupRatio, type PriceTable } from '../billing/pricing'
import { ApiError } from '../lib/errors'
import { channelType } from '../providers/registry'
import type { ParsedResponse, RelayCall, RelayOp, UpstreamError } from '../providers/types'
import { MalformedUpstreamError } from '../lib/upstream-error'
import { getSettings, type Settings } from '../settings/store'
import type { HonoEnv } from '../env'
import { claimProbe, isFrozen, isProbing, reportSuccess } from '../channels/health'
import { affinityKey } from '../channels/affinity'
import { reportAttemptFailure } from './failure-report'
import { keyFreezeName, RequestKeys } from '../channels/key-pool'
import { answerOfStream, type CacheMode, cacheModeOf, readCachedAnswer, storeCachedAnswer, streamCacheable } from './response-cache'
import { readJsonBody, readRelayInput, type RelayInput } from './relay-input'
import { getRoutingTable, type RoutingTable } from '../channels/routing-table'
import type { RoutedChannel } from '../channels/types'
import { clientStatus, decideFailure, type FailureDecision } from '../channels/retry-policy'
import { oversizedMessage, promptTokensAtLeast } from '../channels/oversized-request'
import { primeStream } from './stream-relay'
import type { WordAutomaton } from './policies/word-automaton'
import { recordRetry, recordUpstream } from '../lib/metrics/relay-metrics'
import { assertModelAllowed, type RelayAuth } from '../access/token-auth'
import { admit } from '../access/admit'
import { RelayUsage } from './relay-usage'
import { type Bill, RelayMoney } from './relay-money'
import { planReservation, withOutputLimit, type ReservationPlan } from './reservation'
import { callUpstream, withChannelParameters } from '../channels/upstream'
import { PromptImages, withInlineImages } from './prompt-images'
import { channelNetwork } from '../channels/network'
import { supplierMessage } from './supplier-error'
import { adaptAnswer } from './inbound/relay-hook'
import { passHeaders, withModel } from '../channels/upstream'
import { pluginDisables } from '../providers/plugins'
import type { InboundCodec } from './inbound/types'
import { applyContentSafety } from './policies/content-safety'
import { maskAnswer, outputFilterFor } from './policies/output-filter'
import { RelaySpans } from './relay-spans'
import { RelayRoute, type Routed } from './relay-route'
import { applyModelRoute } from './model-routes'

const JSON_HEADERS = { 'content-type': 'application/json' }

/** Where the request's body comes from when it is not the client's own OpenAI body. */
export interface RelayFrom {
  /**
   * The client speaks another API (Anthropic Messages, Responses, Gemini): its codec turns the
   * body into a chat body, and the chat answer back into its format. Money, routing and retries
   * are the same whatever the format.
   */
  inbound?: InboundCodec
  /** A chat body already built (an MCP loop turn's): relayed as the client's body would be. */
  body?: Record<string, unknown>
}

/** Relays one request; its body is parsed once, whatever format it came in. */
export async function relayRequest(c: Context<HonoEnv>, op: RelayOp, { inbound, body }: RelayFrom = {}): Promise<Response> {
  const startedAt = Date.now()
  const auth = await admit(c)
  const authAt = Date.now()
  const input = await readRelayInput(c, op, inbound ? inbound.toOpenAI(await readJsonBody(c)) : body)
  assertModelAllowed(auth, input.model)
  const [settings, prices, table] = await Promise.all([getSettings(c.env, c.executionCtx), getPriceTable(c.env, c.executionCtx), getRoutingTable(c.env, c.executionCtx)])
  const ratio = groupRatio(settings, auth.group)
  if (ratio === undefined) throw new ApiError(403, `The group "${auth.group}" is not configured on this gateway.`, { code: 'group_not_found' })
  // Sensitive words and personal data in the prompt: refused (400, nothing held) or masked before any supplier sees it.
  applyContentSafety(input, settings, auth.group)
  // A weighted route (canary) may send the request to another model, before anything is priced or held.
  applyModelRoute(settings, auth, input)
  const spans = RelaySpans.start(c, settings, auth, input, inbound?.format ?? 'openai', startedAt, authAt)
  const res = await new RelayRun(c, auth, input, settings, prices, table, ratio, auth.groupRates, startedAt, inbound, spans).execute()
  return inbound ? adaptAnswer(inbound, res) : res
}

class RelayRun {
  private readonly env: Env
  private readonly ctx: ExecutionContext
  private readonly reqId: string
  private attempts = 0
  /** The model being tried (the requested one, then its fallbacks), its channels and price (relay-route.ts). */
  private readonly route: RelayRoute
  /** Attempts (pool-key retries apart) made before the current model: each model has its own RetryTimes. */
  private modelStart = 0
  private readonly keys: RequestKeys
  /** The prompt's image URLs, fetched for channels that need them inline (prompt-images.ts); undefined when none. */
  private readonly images: PromptImages | undefined
  /** Sensitive words masked in answers (policies/output-filter.ts); undefined when that is off. */
  private readonly outputWords: WordAutomaton | undefined
  /** The request's `x-gateway-cache` (response-cache.ts). */
  private readonly cacheMode: CacheMode
  private readonly usage: RelayUsage
  /** What the request holds, pays and logs (relay-money.ts). */
  private readonly money: RelayMoney
  /** Phase durations for the Server-Timing header (waits only: the runtime clock moves at I/O). */
  private readonly timings: [string, number][] = []
  private lastMark: number

  constructor(
    c: Context<HonoEnv>,
    private readonly auth: RelayAuth,
    private readonly input: RelayInput,
    private readonly settings: Settings,
    prices: PriceTable,
    table: RoutingTable,
    private readonly ratio: number,
    rates: { rpm: number; tpm: number },
    private readonly startedAt: number,
    private readonly inbound?: InboundCodec,
    /** The request's trace hooks (relay-spans.ts); undefined when it is not traced. */
    private readonly spans?: RelaySpans
  ) {
    this.env = c.env
    this.ctx = c.executionCtx as ExecutionContext
    this.reqId = c.get('requestId')
    this.usage = new RelayUsage(c.env, settings, input)
    this.money = new RelayMoney(c, auth, input, settings, ratio, rates, startedAt, inbound)
    const affinity = settings.bool('ChannelAffinityEnabled') ? affinityKey(input.model, input.json) : undefined
    this.route = new RelayRoute(c.env, this.ctx, auth, input, settings, prices, table, affinity)
    this.keys = new RequestKeys(
      affinity,
      (id, hash) => isFrozen(id, keyFreezeName(hash)) || isProbing(id, keyFreezeName(hash)),
      (id, hash) => claimProbe(id, keyFreezeName(hash))
    )
    this.images = input.op === 'chat' ? PromptImages.of(c.env, settings, input.json) : undefined
    this.outputWords = outputFilterFor(settings)
    this.cacheMode = cacheModeOf(c.req.header('x-gateway-cache'))
    this.lastMark = startedAt
    this.mark('auth')
  }

  private mark(name: string) {
    const now = Date.now()
    this.timings.push([name, now - this.lastMark])
    this.lastMark = now
  }

  private withTiming(res: Response): Response {
    res.headers.set('server-timing', this.timings.map(([n, d]) => `${n};dur=${d}`).join(', '))
    for (const [k, v] of Object.entries(this.money.rateHeaders)) res.headers.set(k, v)
    return res
  }

  /** Every answer, failures included, carries the x-ratelimit-* headers of the request's limits. */
  async execute(): Promise<Response> {
    try {
      const res = await this.run()
      this.spans?.end()
      return res
    } catch (err) {
      this.spans?.failed(err)
      const rateHeaders = this.money.rateHeaders
      if (err instanceof ApiError && Object.keys(rateHeaders).length > 0) Object.assign(err, { headers: { ...rateHeaders, ...err.headers } })
      throw err
    }
  }

  private async run(): Promise<Response> {
    const cached = await readCachedAnswer(this.env, this.settings, this.auth, this.input, this.cacheMode)
    if (cached) {
      this.spans?.cacheHit()
      // An answer cached before output filtering was turned on is masked on the way out.
      if (this.outputWords) maskAnswer(cached.body, this.outputWords)
      return this.money.answerFromCache(cached, this.route.priceOf(this.input.model))
    }

    const first = this.route.routeFrom(0)
    let channel = first.channel
    this.money.answerAs(this.route.model, this.input.model)
    const plan: ReservationPlan = planReservation(this.input, first.price, first.billed, this.ratio, this.settings)
    // The hold names the tags of the channels able to serve the model: a plan limited to channel tags covers it only when one is the plan's.
    const tags = this.route.servingTags()
    await (this.spans ? this.spans.reserve(plan.amount, () => this.money.hold(plan, tags)) : this.money.hold(plan, tags))
    this.mark('reserve')

    const maxAttempts = this.auth.pinChannel !== undefined ? 1 : 1 + this.settings.int('RetryTimes')
    let last: { status: number; error: UpstreamError; channel: RoutedChannel; decision: FailureDecision } | undefined
    try {
      // A subscription limited to channel tags covered the hold: the request goes to its channels only.
      const scoped = this.route.limitTo(this.money.planTags, channel) ?? (await this.fallBack())
      if (!scoped) throw new ApiError(503, `No channel of this subscription serves the model "${this.route.model}".`, { code: 'model_not_available', param: 'model' })
      channel = scoped
      for (;;) {
        const outcome = await this.attempt(channel)
        if (outcome.response) return this.withTiming(outcome.response)
        const decision = decideFailure(outcome.failure!, this.keywords(), promptTokensAtLeast(this.input.promptEstimate))
        last = { ...outcome.failure!, channel, decision }
        const failure = { channel, key: this.keys.current, model: this.route.model, ...outcome.failure!, decision, requestId: this.reqId, userId: this.auth.userId }
        // A pool key's own failure retries on another key of the channel (not counted in RetryTimes),
        // until several keys in a row answered the same 429 (key-pool.ts).
        const keyFailure = reportAttemptFailure(this.env, this.ctx, this.settings, failure)
        if (keyFailure && this.keys.mayWalk(channel.id, outcome.failure!) && this.keys.hasUntried(channel) && !this.retryWindowClosed()) {
          this.keys.retries++
          recordRetry('key')
          continue
        }
        if (!decision.retry || this.retryWindowClosed()) break
        const next = (this.attempts - this.keys.retries - this.modelStart < maxAttempts ? this.route.pickOrNone() : undefined) ?? (await this.fallBack())
        if (!next) break
        recordRetry('failover')
        channel = next
      }
    } catch (err) {
      await this.money.refund(err instanceof ApiError ? err.message : 'relay failed', this.tries(), last?.channel)
      this.money.recordFailure(err instanceof ApiError ? err.status : 500, (err instanceof ApiError && err.code) || 'internal', last?.channel)
      throw err
    }
    // The client and the user's log see supplier-error.ts's message (or why the request is too large);
    // the supplier's own text stays in the admin log detail.
    const oversized = last!.decision.oversized
    const shown = oversized ? oversizedMessage(oversized) : supplierMessage(last!.status, last!.error.message, last!.error.code)
    await this.money.refund(shown, this.tries(), last!.channel, last!.status, last!.error.message)
    if (oversized) {
      this.money.recordFailure(429, 'request_too_large', last!.channel)
      throw new ApiError(429, shown, { type: 'invalid_request_error', code: 'request_too_large' })
    }
    const mapped = clientStatus(last!.status)
    // The supplier's own code is free text: the metric keeps the gateway's bounded ones.
    const code = mapped.status === 429 ? 'rate_limit_exceeded' : 'upstream_error'
    this.money.recordFailure(mapped.status, code, last!.channel)
    throw new ApiError(mapped.status, shown, { type: mapped.type, code: last!.error.code ?? code })
  }

  // ---- model, channel and price -----------------------------------------------------------

  /**
   * Every channel of the current model failed: the next fallback model with a channel, a price and
   * a hold that covers it (relay-money.ts `refit`), or undefined when none is left.
   */
  private async fallBack(): Promise<RoutedChannel | undefined> {
    while (this.route.hasNext) {
      let next: Routed
      try {
        next = this.route.routeFrom(this.route.index + 1)
      } catch {
        return undefined
      }
      const plan = planReservation(this.input, next.price, next.billed, this.ratio, this.settings)
      if (await this.money.refit(plan, this.route.model, this.input.model, this.route.servingTags())) {
        // A regrown hold may be another subscription's (or the balance's): the channels follow it.
        const channel = this.route.limitTo(this.money.planTags, next.channel)
        if (!channel) continue
        this.modelStart = this.attempts - this.keys.retries
        return channel
      }
    }
    return undefined
  }

  private tries() {
    return { attempts: this.attempts, tried: this.route.tried }
  }

  private retryWindowClosed() {
    const cap = this.settings.int('RetryTimeOut')
    return cap > 0 && Date.now() - this.startedAt > cap * 1000
  }

  private keywords() {
    return this.settings
      .str('DisableChannelKeywords')
      .split('\n')
      .map((k) => k.trim())
      .filter(Boolean)
  }

  // ---- one attempt ------------------------------------------------------------------------

  private async attempt(routed: RoutedChannel): Promise<{ response?: Response; failure?: { status: number; error: UpstreamError } }> {
    this.attempts++
    this.route.tried.add(routed.id)
    const channel = this.keys.use(routed)
    const type = channelType(channel.type)
    // A channel speaking the client's own format (inbound codec) gets the client's body natively —
    // unless content safety masked the prompt or filters the answer: then the chat body goes through
    // the channel's adapter, so both sides are the OpenAI shape the policies read.
    const native = this.input.contentSafety || this.outputWords ? undefined : this.inbound?.nativeAdapter?.(channel.type)
    const adapter = type && (native ?? type.adapter)
    if (!type || !adapter || !adapter.supports(this.input.op) || pluginDisables(channel, this.input.op)) {
      return { failure: { status: 400, error: { message: `Channel type ${type?.name ?? channel.type} does not support ${this.input.op}` } } }
    }
    const { price, billed, upstream } = this.route.priceFor(channel)
    const limit = this.money.outputCap ?? this.input.maxTokens
    // A refused image (blocked, too big, not an image) throws the client's 400; run() refunds the hold.
    const images = await this.images?.forChannel(type)
    const json = images && this.input.json ? withInlineImages(this.input.json, images) : this.input.json
    const call: RelayCall = {
      op: this.input.op,
      model: upstream,
      images,
      json: json ? withOutputLimit({ ...withChannelParameters(json, channel), model: upstream }, this.input.op, limit) : undefined,
      maxOutputTokens: limit,
      form: this.input.form ? withModel(this.input.form, upstream) : undefined,
      stream: this.input.stream,
      includeUsage: this.input.includeUsage,
    }
    const sentAt = Date.now()
    const result = await callUpstream(adapter, call, channel, this.settings.int('UpstreamTimeoutSeconds') * 1000, channelNetwork(this.env, channel))
    recordUpstream(channel.type, result.ok, result.ok ? 200 : result.status, Date.now() - sentAt)
    this.spans?.attempt(channel, type.name, upstream, this.attempts, sentAt, result)
    this.mark(`upstream-${this.attempts}`)
    if (!result.ok) return { failure: { status: result.status, error: result.error } }

    const bill = { channel, price, billed, upstream }
    if (call.stream) {
      const primed = await primeStream({
        upstream: result.response,
        // A native channel's stream goes to the client as the supplier's bytes when the format has a pass-through.
        transformer: native?.passThrough?.(call) ?? adapter.createStream(call),
        includeUsage: call.includeUsage,
        startedAt: this.startedAt,
        resolveUsage: (text) => this.usage.counted(text, upstream),
        outputFilter: this.outputWords,
        // An inbound client's frames are written from the transformer's chunks (unused by a pass-through).
        encoder: this.inbound?.createStreamEncoder(),
      })
      if (!primed.ok) return { failure: { status: 0, error: primed.error } }
      reportSuccess(this.env, this.ctx, channel.id, this.route.model, this.keys.current && keyFreezeName(this.keys.current.hash))
      this.spans?.firstByte(this.startedAt + primed.stream.firstByteMs)
      this.ctx.waitUntil(
        primed.stream.done
          .then(async (end) => {
            const reported = sanitizeUsage(end.usage)
            // Cut before the supplier's final output count (Anthropic's message_delta): the output is counted from the text.
            const open = end.kind !== 'complete' && end.outputOpen
            const usage = !reported ? await this.usage.counted(end.text(), upstream) : open ? await this.usage.withOutputOf(reported, end.text(), upstream) : reported
            const note = end.kind === 'cancelled' ? 'client disconnected; billed for what was generated' : end.kind === 'failed' ? `stream cut: ${end.error.message}` : ''
            await this.settle(bill, usage, primed.stream.firstByteMs, note, upstream, end.text)
            if (end.kind === 'complete' && streamCacheable(this.input)) {
              // The text the client read: masked when output filtering is on.
              const text = this.outputWords ? this.outputWords.mask(end.text()).text : end.text()
              await storeCachedAnswer(this.env, this.settings, this.auth, this.input, answerOfStream(text, upstream, usage), this.cacheMode)
            }
          })
          .finally(() => this.spans?.close())
      )
      return { response: primed.stream.response }
    }

    let parsed: ParsedResponse
    try {
      parsed = await adapter.parseResponse(call, result.response)
    } catch (err) {
      if (err instanceof MalformedUpstreamError) return { failure: { status: 0, error: { message: err.message, type: 'upstream_error' } } }
      throw err
    }
    reportSuccess(this.env, this.ctx, channel.id, this.route.model, this.keys.current && keyFreezeName(this.keys.current.hash))
    const elapsed = Date.now() - this.startedAt
    if (parsed.kind === 'raw') {
      const usage = await this.usage.ofRaw(upstream, parsed.response)
      this.ctx.waitUntil(this.settle(bill, usage, elapsed, '', upstream))
      return { response: new Response(parsed.response.body, { status: parsed.response.status, headers: passHeaders(parsed.response.headers) }) }
    }
    const usage = await this.usage.ofJson(parsed, upstream, price)
    // The usage above is the supplier's; the client (and the cache) get the masked answer.
    const masked = this.outputWords ? maskAnswer(parsed.body, this.outputWords) > 0 : false
    const body = parsed.body as { model?: unknown; choices?: unknown } | undefined
    const responseModel = typeof body?.model === 'string' ? body.model : upstream
    this.ctx.waitUntil(this.settle(bill, usage, elapsed, '', responseModel, () => JSON.stringify(body?.choices ?? body)))
    this.ctx.waitUntil(storeCachedAnswer(this.env, this.settings, this.auth, this.input, { body: parsed.body, usage }, this.cacheMode))
    return { response: parsed.raw !== undefined && !masked ? new Response(parsed.raw, { headers: JSON_HEADERS }) : Response.json(parsed.body) }
  }

  /** Settle the exact cost (relay-money.ts), inside the trace's settle span when the request is traced. */
  private settle(bill: Bill, usage: Usage, firstByteMs: number, note: string, responseModel: string, output?: () => string) {
    const settle = () => this.money.settle(bill, usage, firstByteMs, note, this.attempts)
    return this.spans ? this.spans.settle(settle, usage, responseModel, output) : settle()
  }
}
