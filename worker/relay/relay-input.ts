/**
 * Reads and minimally validates the client's relay request per operation: JSON bodies keep every
 * unknown parameter (they pass through to the supplier); multipart bodies (image edits/variations,
 * audio) are read as FormData so they can be re-sent on a retry. Also derives what billing needs:
 * the model, stream flags, max_tokens, tool use and a cheap prompt-size estimate.
 */
import type { Context } from 'hono'
import { z } from 'zod'
import { ApiError } from '../lib/errors'
import { validationError } from '../lib/validate'
import type { RelayOp } from '../providers/types'
import type { HonoEnv } from '../env'

export interface RelayInput {
  op: RelayOp
  model: string
  json?: Record<string, unknown>
  form?: FormData
  stream: boolean
  includeUsage: boolean
  maxTokens?: number
  hasTools: boolean
  /** Upper-ish estimate of prompt tokens, for the reservation only. */
  promptEstimate: number
}

const MULTIPART_OPS = new Set<RelayOp>(['images.edits', 'images.variations', 'audio.transcriptions', 'audio.translations'])

const model = z.string({ error: 'model is required' }).trim().min(1, 'model is required').max(200)
const nonEmpty = z.union([z.string(), z.array(z.unknown()).min(1)])

const SCHEMAS: Partial<Record<RelayOp, z.ZodType<Record<string, unknown>>>> = {
  chat: z.looseObject({
    model,
    messages: z.array(z.looseObject({ role: z.string() }), { error: 'messages must be a non-empty array' }).min(1, 'messages must not be empty'),
    stream: z.boolean().optional(),
    max_tokens: z.number().int().min(1).nullish(),
    max_completion_tokens: z.number().int().min(1).nullish(),
  }),
  completions: z.looseObject({ model, prompt: nonEmpty, stream: z.boolean().optional(), max_tokens: z.number().int().min(1).optional() }),
  embeddings: z.looseObject({ model, input: nonEmpty }),
  moderations: z.looseObject({ model: model.optional(), input: nonEmpty }),
  'images.generations': z.looseObject({ model, prompt: z.string().min(1, 'prompt is required'), n: z.number().int().min(1).max(10).optional() }),
  'audio.speech': z.looseObject({ model, input: z.string().min(1, 'input is required').max(8192), voice: z.string().optional() }),
  rerank: z.looseObject({ model, query: z.string().min(1, 'query is required'), documents: z.array(z.unknown()).min(1, 'documents must not be empty') }),
}

/** Characters of everything the model will read (strings anywhere in the relevant fields). */
function textSize(value: unknown, images: { n: number }): number {
  if (typeof value === 'string') return value.length
  if (Array.isArray(value)) return value.reduce<number>((s, v) => s + textSize(v, images), 0)
  if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>
    if (o.type === 'image_url') {
      images.n++
      return 0
    }
    return Object.values(o).reduce<number>((s, v) => s + textSize(v, images), 0)
  }
  return 0
}

export function estimatePromptTokens(op: RelayOp, body: Record<string, unknown>): number {
  const images = { n: 0 }
  const fields = op === 'chat' ? [body.messages, body.tools] : [body.prompt, body.input, body.query, body.documents]
  const chars = fields.reduce<number>((s, f) => s + textSize(f, images), 0)
  const messages = Array.isArray(body.messages) ? body.messages.length : 0
  // ~3 characters per token is an over-estimate for English and close for CJK; plus image tiles.
  return Math.ceil(chars / 3) + 4 * messages + 3 + images.n * 1105
}

export async function readRelayInput(c: Context<HonoEnv>, op: RelayOp): Promise<RelayInput> {
  if (MULTIPART_OPS.has(op)) {
    let form: FormData
    try {
      form = await c.req.formData()
    } catch {
      throw new ApiError(400, 'Expected a multipart/form-data body', { code: 'invalid_body' })
    }
    const m = form.get('model')
    if (typeof m !== 'string' || !m.trim()) throw new ApiError(400, 'model is required', { param: 'model', code: 'missing_model' })
    if (!(form.get('file') instanceof File) && !(form.get('image') instanceof File)) {
      throw new ApiError(400, 'A file is required', { param: 'file', code: 'missing_file' })
    }
    const prompt = form.get('prompt')
    return {
      op,
      model: m.trim(),
      form,
      stream: false,
      includeUsage: false,
      hasTools: false,
      promptEstimate: typeof prompt === 'string' ? Math.ceil(prompt.length / 3) : 0,
    }
  }
  let raw: unknown
  try {
    raw = await c.req.json()
  } catch {
    throw new ApiError(400, 'The request body is not valid JSON', { code: 'invalid_json' })
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new ApiError(400, 'The request body must be a JSON object', { code: 'invalid_body' })
  const parsed = SCHEMAS[op]!.safeParse(raw)
  if (!parsed.success) throw validationError(parsed.error)
  const body = parsed.data
  if (op === 'moderations' && !body.model) body.model = 'omni-moderation-latest'
  const streamable = op === 'chat' || op === 'completions'
  const stream = streamable && body.stream === true
  const maxTokens = (body.max_completion_tokens ?? body.max_tokens ?? undefined) as number | undefined
  return {
    op,
    model: String(body.model),
    json: body,
    stream,
    includeUsage: stream && (body.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true,
    maxTokens,
    hasTools: Array.isArray(body.tools) && body.tools.length > 0,
    promptEstimate: estimatePromptTokens(op, body),
  }
}
