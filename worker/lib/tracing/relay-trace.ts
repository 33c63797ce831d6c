/**
 * Where a relay request's trace starts (called only while OtlpEndpoint is set: relay/relay-spans.ts
 * checks it first): the client's `traceparent` is continued and the head-sampling decision
 * (trace-context.ts) made once. The root span carries the OpenTelemetry GenAI attributes
 * (`gen_ai.operation.name`, `gen_ai.request.model`, …), the request, user and token ids — never a
 * key, and prompt or answer text only with OtlpRecordContent on (`content`).
 */
import { newTraceId, parseTraceparent, shouldSample } from './trace-context'
import { useExportTarget } from './exporter'
import { type Attrs, Trace } from './trace'

/** The Otlp* settings as the relay read them (lib/ does not read settings itself). */
export interface TraceSettings {
  /** OtlpEndpoint; empty: tracing is off. */
  endpoint: string
  /** OtlpHeaders as stored. */
  headers: string
  sampleRate: number
  recordContent: boolean
}

export interface RelayTraceStart {
  traceparent: string | undefined
  requestId: string
  /** The relay operation (providers/types.ts RelayOp). */
  op: string
  model: string
  stream: boolean
  userId: number
  tokenId: number
  group: string
  inbound: string
  startedAt: number
}

/** GenAI operation names of the relay's operations (others keep their own name). */
const OPERATIONS: Record<string, string> = { chat: 'chat', completions: 'text_completion', embeddings: 'embeddings' }

/** A relay request's trace and whether prompt/answer text may go on it. */
export interface RelayTrace {
  trace: Trace
  content: boolean
}

export function startRelayTrace(settings: TraceSettings, s: RelayTraceStart): RelayTrace | undefined {
  const parent = parseTraceparent(s.traceparent)
  const traceId = parent?.traceId ?? newTraceId()
  if (!shouldSample(settings.sampleRate, traceId, parent)) return undefined
  const operation = OPERATIONS[s.op] ?? s.op
  const attributes: Attrs = {
    'gen_ai.operation.name': operation,
    'gen_ai.request.model': s.model,
    'gateway.request_id': s.requestId,
    'user.id': String(s.userId),
    'gateway.token_id': s.tokenId,
    'gateway.group': s.group,
    'gateway.inbound_format': s.inbound,
    'gateway.stream': s.stream,
  }
  const trace = new Trace(`${operation} ${s.model}`, s.startedAt, attributes, { traceId, parentSpanId: parent?.spanId })
  useExportTarget({ endpoint: settings.endpoint, headers: settings.headers })
  return { trace, content: settings.recordContent }
}

/** `gen_ai.system` values of the GenAI conventions for the channel types that have one; others: the type's name as a slug. */
const SYSTEMS: Record<number, string> = {
  1: 'openai',
  3: 'az.ai.openai',
  14: 'anthropic',
  25: 'gcp.gemini',
  28: 'deepseek',
  30: 'mistral_ai',
  31: 'groq',
  32: 'aws.bedrock',
  36: 'cohere',
}

export function genAiSystem(type: number, name: string | undefined): string {
  return (
    SYSTEMS[type] ??
    (name ?? `type_${type}`)
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^_|_$/g, '')
  )
}

/** Text kept on a span attribute at most (content recording). */
const CONTENT_MAX = 16_000

/** The prompt of a relay body as one attribute value (messages, input or prompt), clipped. */
export function promptContent(json: Record<string, unknown> | undefined): string | undefined {
  const prompt = json?.messages ?? json?.input ?? json?.prompt
  if (prompt === undefined) return undefined
  return clip(typeof prompt === 'string' ? prompt : JSON.stringify(prompt))
}

export const clip = (text: string) => (text.length > CONTENT_MAX ? `${text.slice(0, CONTENT_MAX)}…` : text)
