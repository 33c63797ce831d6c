/**
 * Reads and minimally validates the client's relay request per operation: JSON bodies keep every
 * unknown parameter (they pass through to the supplier); multipart bodies (image edits/variations,
 * audio) are read as FormData so they can be re-sent on a retry. Also derives what billing needs:
 * the model, stream flags, max_tokens, n, image size/quality, tool use and a cheap prompt-size estimate.
 *
 * Every number that reaches money or the supplier is checked here: finite, integer where integral,
 * bounded. Money-relevant fields an operation does not use (max_tokens on embeddings…) are dropped.
 */
import type { Context } from 'hono'
import { z } from 'zod'
import { blobReader, heldAudioSeconds } from '../billing/audio-duration'
import { ApiError } from '../lib/errors'
import { validationError } from '../lib/validate'
import { withoutPremiumOptions } from './premium-options'
import type { RelayOp } from '../providers/types'
import type { HonoEnv } from '../env'
import type { ContentSafetyCounts } from './policies/content-safety'
import { MAX_FALLBACKS_PER_MODEL } from '../../shared/contract/option-checks'

export interface RelayInput {
  op: RelayOp
  model: string
  json?: Record<string, unknown>
  form?: FormData
  stream: boolean
  includeUsage: boolean
  /**
   * The request's one output limit: the larger of `max_tokens` and `max_completion_tokens` when a
   * client sends both. Both fields are removed from `json`; the relay writes this number (or the
   * cap the wallet paid for) into the one field the channel's supplier reads (reservation.ts).
   */
  maxTokens?: number
  /** Answers billed per request: n (× best_of for completions) for chat/completions, images for image ops. */
  n: number
  /** Image ops: the requested size and quality (for their price ratio). */
  imageSize?: string
  imageQuality?: string
  /** Multipart ops: bytes of the uploaded file. */
  fileBytes?: number
  /** Transcriptions and translations: the seconds of audio to hold for (billing/audio-duration.ts). */
  audioSeconds?: number
  hasTools: boolean
  /** Upper-ish estimate of prompt tokens before the model family's margin (prompt-estimate.ts), for the reservation only. */
  promptEstimate: number
  /** The request's own fallback models (`models`, OpenRouter's shape; model-fallbacks.ts), stripped from the body. */
  models?: string[]
  /** The requested model when a weighted route (model-routes.ts) sent the request to another one. */
  routedFrom?: string
  /** What the content-safety policy masked in the prompt (policies/content-safety.ts), for the log metadata; absent when nothing. */
  contentSafety?: ContentSafetyCounts
}

const MULTIPART_OPS = new Set<RelayOp>(['images.edits', 'images.variations', 'audio.transcriptions', 'audio.translations'])

const model = z.string({ error: 'model is required' }).trim().min(1, 'model is required').max(200)
/** `models`: the fallbacks tried after `model`, on the operations that answer text or vectors. */
const fallbackModels = z
  .array(z.string().trim().min(1, 'model names must not be empty').max(200), { error: 'models must be an array of model names' })
  .min(1, 'models must not be empty')
  .max(MAX_FALLBACKS_PER_MODEL + 1, `models may list at most ${MAX_FALLBACKS_PER_MODEL + 1} models`)
const FALLBACK_OPS = new Set<RelayOp>(['chat', 'completions', 'embeddings'])
const nonEmpty = z.union([z.string(), z.array(z.unknown()).min(1)])

// Bounded numbers (zod refuses NaN and ±Infinity; `int` refuses fractions and unsafe integers).
const intIn = (min: number, max: number) => z.number().int().min(min).max(max)
const numIn = (min: number, max: number) => z.number().min(min).max(max)
const maxTokens = intIn(1, 10_000_000).nullish()
const imageSize = z.string().regex(/^(auto|\d{2,5}x\d{2,5})$/, 'size must look like 1024x1024')
const imageQuality = z.enum(['auto', 'standard', 'hd', 'low', 'medium', 'high'])
const sampling = {
  temperature: numIn(0, 2).nullish(),
  top_p: numIn(0, 1).nullish(),
  presence_penalty: numIn(-2, 2).nullish(),
  frequency_penalty: numIn(-2, 2).nullish(),
  seed: z.number().int().nullish(),
  top_logprobs: intIn(0, 20).nullish(),
  logit_bias: z.record(z.string(), numIn(-100, 100)).nullish(),
}
const textModel = { max_tokens: maxTokens, stream: z.boolean().optional(), ...sampling }

const SCHEMAS: Partial<Record<RelayOp, z.ZodType<Record<string, unknown>>>> = {
  chat: z.looseObject({
    model,
    messages: z.array(z.looseObject({ role: z.string() }), { error: 'messages must be a non-empty array' }).min(1, 'messages must not be empty'),
    ...textModel,
    max_completion_tokens: maxTokens,
    n: intIn(1, 128).nullish(),
  }),
  completions: z.looseObject({ model, prompt: nonEmpty, ...textModel, n: intIn(1, 128).nullish(), best_of: intIn(1, 20).nullish() }),
  embeddings: z.looseObject({ model, input: nonEmpty, dimensions: intIn(1, 65_536).optional() }),
  moderations: z.looseObject({ model: model.optional(), input: nonEmpty }),
  'images.generations': z.looseObject({
    model,
    prompt: z.string().min(1, 'prompt is required').max(32_000),
    n: intIn(1, 10).nullish(),
    size: imageSize.nullish(),
    quality: imageQuality.nullish(),
  }),
  'audio.speech': z.looseObject({ model, input: z.string().min(1, 'input is required').max(8192), voice: z.string().optional(), speed: numIn(0.25, 4).optional() }),
  rerank: z.looseObject({
    model,
    query: z.string().min(1, 'query is required'),
    documents: z.array(z.unknown()).min(1, 'documents must not be empty').max(10_000),
    top_n: intIn(1, 10_000).optional(),
  }),
}

/** Fields that change the bill, kept only on the operations that use them. */
const MONEY_FIELDS = ['max_tokens', 'max_completion_tokens', 'n', 'best_of'] as const
const MONEY_FIELDS_USED: Partial<Record<RelayOp, readonly string[]>> = {
  chat: MONEY_FIELDS,
  completions: ['max_tokens', 'n', 'best_of'],
  'images.generations': ['n'],
}

/** Multipart fields checked like their JSON counterparts. */
const FORM_SCHEMA = z.object({
  n: z.coerce.number().pipe(intIn(1, 10)).optional(),
  size: imageSize.optional(),
  quality: imageQuality.optional(),
  temperature: z.coerce.number().pipe(numIn(0, 1)).optional(),
})

/**
 * Tokens an image may cost at most: the largest of the suppliers' own formulas (OpenAI's patch
 * models reach ~2,490 for a 1536-patch image; Claude ~1,600; OpenAI's tiles ~1,105).
 */
const IMAGE_WORST_TOKENS = 2500

/** ASCII characters and the UTF-8 bytes of everything else, of every string in the relevant fields. */
function textSize(value: unknown, size: { ascii: number; otherBytes: number; images: number }): void {
  if (typeof value === 'string') {
    for (let i = 0; i < value.length; i++) {
      const code = value.charCodeAt(i)
      if (code < 0x80) size.ascii++
      else if (code < 0x800) size.otherBytes += 2
      // A surrogate pair is one 4-byte character: 2 bytes for each half.
      else size.otherBytes += code >= 0xd800 && code < 0xe000 ? 2 : 3
    }
  } else if (Array.isArray(value)) for (const v of value) textSize(v, size)
  else if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>
    if (o.type === 'image_url') size.images++
    else for (const v of Object.values(o)) textSize(v, size)
  }
}

/**
 * A cheap upper-ish estimate of the prompt's tokens, before the model family's margin
 * (billing/prompt-margins.ts): ~3 ASCII characters per token (English runs ~4), and one token per
 * 2 UTF-8 bytes of anything else (CJK costs ~1–1.5 tokens a character, 3 bytes), plus each image
 * at its worst case.
 */
export function estimatePromptTokens(op: RelayOp, body: Record<string, unknown>): number {
  const size = { ascii: 0, otherBytes: 0, images: 0 }
  const fields = op === 'chat' ? [body.messages, body.tools] : [body.prompt, body.input, body.query, body.documents]
  for (const f of fields) textSize(f, size)
  const messages = Array.isArray(body.messages) ? body.messages.length : 0
  return Math.ceil(size.ascii / 3 + size.otherBytes / 2) + 4 * messages + 3 + size.images * IMAGE_WORST_TOKENS
}

/**
 * Removes every output-limit field of a chat/completions body and answers the one limit the wallet
 * holds for: the larger value when a client sets two (so no supplier can read a bigger one than was
 * held, whichever field it reads).
 */
function takeOutputLimit(body: Record<string, unknown>): number | undefined {
  const values = [body.max_tokens, body.max_completion_tokens].filter((v): v is number => typeof v === 'number')
  delete body.max_tokens
  delete body.max_completion_tokens
  return values.length > 0 ? Math.max(...values) : undefined
}

/** The client's JSON body (Hono keeps it once parsed), or a 400 in the caller's error envelope. */
export async function readJsonBody(c: Context<HonoEnv>): Promise<unknown> {
  try {
    return await c.req.json()
  } catch {
    throw new ApiError(400, 'The request body is not valid JSON', { code: 'invalid_json' })
  }
}

/**
 * The request's input for `op`. `given`: a JSON body already in hand (an inbound codec's chat body,
 * an MCP loop turn's), read instead of the request's own, so it is never serialised and parsed again.
 */
export async function readRelayInput(c: Context<HonoEnv>, op: RelayOp, given?: Record<string, unknown>): Promise<RelayInput> {
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
    const fields = Object.fromEntries(['n', 'size', 'quality', 'temperature'].flatMap((k) => (typeof form.get(k) === 'string' ? [[k, form.get(k)]] : [])))
    const checked = FORM_SCHEMA.safeParse(fields)
    if (!checked.success) throw validationError(checked.error)
    const file = form.get('file') ?? form.get('image')
    const prompt = form.get('prompt')
    return {
      op,
      model: m.trim(),
      form,
      stream: false,
      includeUsage: false,
      hasTools: false,
      n: op.startsWith('images.') ? (checked.data.n ?? 1) : 1,
      imageSize: checked.data.size,
      imageQuality: checked.data.quality,
      fileBytes: file instanceof File ? file.size : 0,
      audioSeconds: op.startsWith('audio.') && file instanceof File ? await heldAudioSeconds(blobReader(file)) : undefined,
      promptEstimate: typeof prompt === 'string' ? Math.ceil(prompt.length / 3) : 0,
    }
  }
  const raw = given ?? (await readJsonBody(c))
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new ApiError(400, 'The request body must be a JSON object', { code: 'invalid_body' })
  const parsed = SCHEMAS[op]!.safeParse(raw)
  if (!parsed.success) throw validationError(parsed.error)
  const body = withoutPremiumOptions(parsed.data)
  let models: string[] | undefined
  if (body.models !== undefined && body.models !== null) {
    if (!FALLBACK_OPS.has(op)) throw new ApiError(400, `models is not supported on ${op}`, { param: 'models', code: 'invalid_request' })
    const checked = z.object({ models: fallbackModels }).safeParse({ models: body.models })
    if (!checked.success) throw validationError(checked.error)
    models = checked.data.models
  }
  delete body.models
  const used = MONEY_FIELDS_USED[op] ?? []
  for (const field of MONEY_FIELDS) if (!used.includes(field)) delete body[field]
  if (op === 'moderations' && !body.model) body.model = 'omni-moderation-latest'
  const streamable = op === 'chat' || op === 'completions'
  const stream = streamable && body.stream === true
  const maxTokens = takeOutputLimit(body)
  const n = ((body.n as number | null | undefined) ?? 1) * (op === 'completions' ? Math.max(1, (body.best_of as number | null | undefined) ?? 1) : 1)
  return {
    op,
    model: String(body.model),
    json: body,
    stream,
    includeUsage: stream && (body.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true,
    maxTokens,
    n,
    imageSize: (body.size as string | null | undefined) ?? undefined,
    imageQuality: (body.quality as string | null | undefined) ?? undefined,
    hasTools: Array.isArray(body.tools) && body.tools.length > 0,
    promptEstimate: estimatePromptTokens(op, body),
    ...(models ? { models } : {}),
  }
}
