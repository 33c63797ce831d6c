/**
 * The relay's trace hooks (lib/tracing/): relay-request.ts calls these next to its metrics hooks,
 * always as `spans?.…`, so a request that is not traced pays nothing past the one settings check
 * in `RelaySpans.start`. One trace per request: the root span (the GenAI attributes), child spans
 * for auth, the reservation, each upstream attempt (supplier, channel, HTTP status) and the
 * settlement, and an event when a stream's first byte goes out. The root span ends when the request
 * settles (a stream: when it ended) or fails; export happens in `waitUntil`.
 */
import type { Context } from 'hono'
import type { Usage } from '../billing/formula'
import type { HonoEnv } from '../env'
import { ApiError } from '../lib/errors'
import { clip, genAiSystem, promptContent, type RelayTrace, startRelayTrace } from '../lib/tracing/relay-trace'
import { SpanKind } from '../lib/tracing/trace'
import type { Settings } from '../settings/store'
import type { RelayAuth } from '../access/token-auth'
import type { RoutedChannel } from '../channels/types'
import type { UpstreamOutcome } from '../channels/upstream'
import type { RelayInput } from './relay-input'

export class RelaySpans {
  /** A settlement will end the root span (else the request's own end does). */
  private settling = false

  private constructor(
    private readonly t: RelayTrace,
    private readonly env: Env,
    private readonly ctx: Pick<ExecutionContext, 'waitUntil'>
  ) {}

  /** The request's trace, or undefined when tracing is off or the request is not sampled. `authAt`: when the key was authenticated. */
  static start(c: Context<HonoEnv>, settings: Settings, auth: RelayAuth, input: RelayInput, inbound: string, startedAt: number, authAt: number) {
    const endpoint = settings.str('OtlpEndpoint')
    if (!endpoint) return undefined
    const traceSettings = { endpoint, headers: settings.str('OtlpHeaders'), sampleRate: settings.num('OtlpSampleRate'), recordContent: settings.bool('OtlpRecordContent') }
    const t = startRelayTrace(traceSettings, {
      traceparent: c.req.header('traceparent'),
      requestId: c.get('requestId'),
      op: input.op,
      model: input.model,
      stream: input.stream,
      userId: auth.userId,
      tokenId: auth.id,
      group: auth.group,
      inbound,
      startedAt,
    })
    if (!t) return undefined
    t.trace.child('gateway.auth', startedAt, authAt, { 'user.id': String(auth.userId), 'gateway.token_id': auth.id })
    if (t.content) t.trace.set({ 'gen_ai.input.messages': promptContent(input.json) })
    return new RelaySpans(t, c.env, c.executionCtx)
  }

  cacheHit() {
    this.t.trace.set({ 'gateway.cache_hit': true, 'http.response.status_code': 200 })
  }

  /** The reservation (lease or wallet hold) as a span. */
  reserve<T>(amount: number, fn: () => Promise<T>): Promise<T> {
    return this.t.trace.span('gateway.reserve', { 'gateway.reserve.amount': amount }, fn)
  }

  /** One upstream attempt, from the call to the supplier's headers. */
  attempt(channel: RoutedChannel, typeName: string | undefined, upstreamModel: string, attempt: number, sentAt: number, result: UpstreamOutcome) {
    const status = result.ok ? result.response.status : result.status
    this.t.trace.child(
      `upstream ${upstreamModel}`,
      sentAt,
      Date.now(),
      {
        'gen_ai.system': genAiSystem(channel.type, typeName),
        'gen_ai.request.model': upstreamModel,
        'gateway.channel.id': channel.id,
        'gateway.channel.type': channel.type,
        'gateway.attempt': attempt,
        'http.response.status_code': status || undefined,
      },
      { kind: SpanKind.CLIENT, ...(result.ok ? {} : { error: result.error.code ?? (status ? `http ${status}` : 'upstream failed') }) }
    )
    if (result.ok) this.t.trace.set({ 'gen_ai.system': genAiSystem(channel.type, typeName), 'gateway.channel.id': channel.id })
  }

  /** A stream's first byte went out `firstByteMs` after the request started; its settlement ends the trace. */
  firstByte(at: number) {
    this.settling = true
    this.t.trace.event('gen_ai.first_byte', at)
  }

  /** The settlement of an answered request: usage on the root, a settle span, then the trace ends. */
  settle(settled: () => Promise<void>, usage: Usage, responseModel: string, output?: () => string): Promise<void> {
    this.settling = true
    const trace = this.t.trace
    trace.set({
      'gen_ai.response.model': responseModel,
      'gen_ai.usage.input_tokens': usage.promptTokens,
      'gen_ai.usage.output_tokens': usage.completionTokens,
      'http.response.status_code': 200,
    })
    if (this.t.content && output) trace.set({ 'gen_ai.output.messages': clip(output()) })
    return trace.span('gateway.settle', {}, settled).finally(() => trace.end(this.env, this.ctx))
  }

  /** End the trace when nothing else will (no settlement pending): a cache hit, or a stream whose settlement never ran. */
  end() {
    if (!this.settling) this.t.trace.end(this.env, this.ctx)
  }

  /** Close a trace whose settlement did not happen (its end is idempotent). */
  close() {
    this.t.trace.end(this.env, this.ctx)
  }

  /** The request failed with `err` (after its refund). */
  failed(err: unknown) {
    const status = err instanceof ApiError ? err.status : 500
    const message = err instanceof ApiError ? err.message : 'relay failed'
    this.t.trace.fail(message, { 'http.response.status_code': status, 'error.type': (err instanceof ApiError && err.code) || String(status) })
    this.t.trace.end(this.env, this.ctx)
  }
}
