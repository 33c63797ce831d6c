/**
 * Gemini generateContent / embedContent requests → internal OpenAI bodies: the zod schemas at the
 * route edge (bounded generationConfig numbers), systemInstruction, contents with text, inline and
 * file images, functionCall / functionResponse (paired to call ids by name and order), function
 * declarations, toolConfig and JSON output. safetySettings, thinkingConfig and built-in tools
 * (googleSearch, codeExecution) are not carried over to converted channels (see README).
 *
 * Output limit: a thinking budget is counted on top of maxOutputTokens (Google documents them as
 * separate), so the chat body's one limit — what the wallet holds — is their sum, and a native
 * Gemini body is written back so the two never add up to more (`withGeminiOutputLimit`).
 */
import { z } from 'zod'
import { ApiError } from '../../../lib/errors'
import { validationError } from '../../../lib/validate'

const part = z.looseObject({
  text: z.string().optional(),
  thought: z.boolean().optional(),
  inlineData: z.looseObject({ mimeType: z.string().min(1).max(100), data: z.string() }).optional(),
  fileData: z.looseObject({ mimeType: z.string().max(100).optional(), fileUri: z.string().min(1) }).optional(),
  functionCall: z.looseObject({ name: z.string().min(1).max(200), args: z.record(z.string(), z.unknown()).optional(), id: z.string().max(200).optional() }).optional(),
  functionResponse: z.looseObject({ name: z.string().min(1).max(200), response: z.unknown(), id: z.string().max(200).optional() }).optional(),
})
const content = z.looseObject({ role: z.enum(['user', 'model', 'function']).optional(), parts: z.array(part) })

const declaration = z.looseObject({
  name: z.string().min(1).max(200),
  description: z.string().optional(),
  parameters: z.record(z.string(), z.unknown()).optional(),
  parametersJsonSchema: z.record(z.string(), z.unknown()).optional(),
})

export const generateSchema = z.looseObject({
  contents: z.array(content, { error: 'contents must be an array' }).min(1, 'contents must not be empty'),
  systemInstruction: z.looseObject({ parts: z.array(part) }).optional(),
  tools: z
    .array(z.looseObject({ functionDeclarations: z.array(declaration).max(512).optional() }))
    .max(64)
    .optional(),
  toolConfig: z
    .looseObject({
      functionCallingConfig: z
        .looseObject({ mode: z.enum(['AUTO', 'ANY', 'NONE', 'VALIDATED', 'MODE_UNSPECIFIED']).optional(), allowedFunctionNames: z.array(z.string()).optional() })
        .optional(),
    })
    .optional(),
  generationConfig: z
    .looseObject({
      temperature: z.number().min(0).max(2).optional(),
      topP: z.number().min(0).max(1).optional(),
      topK: z.number().int().min(0).max(1_000_000).optional(),
      maxOutputTokens: z.number().int().min(1).max(10_000_000).optional(),
      candidateCount: z.number().int().min(1).max(8).optional(),
      // -1: dynamic thinking; 0: off.
      thinkingConfig: z.looseObject({ thinkingBudget: z.number().int().min(-1).max(10_000_000).optional() }).optional(),
      stopSequences: z.array(z.string().min(1).max(1000)).max(5).optional(),
      presencePenalty: z.number().min(-2).max(2).optional(),
      frequencyPenalty: z.number().min(-2).max(2).optional(),
      seed: z.number().int().optional(),
      responseMimeType: z.string().max(100).optional(),
      responseSchema: z.record(z.string(), z.unknown()).optional(),
      responseJsonSchema: z.record(z.string(), z.unknown()).optional(),
    })
    .optional(),
  safetySettings: z.array(z.unknown()).optional(),
})

export type GenerateRequest = z.infer<typeof generateSchema>
type Part = z.infer<typeof part>

export function parseGenerate(body: unknown): GenerateRequest {
  const parsed = generateSchema.safeParse(body)
  if (!parsed.success) throw validationError(parsed.error)
  const builtIn = parsed.data.tools?.find((t) => !t.functionDeclarations)
  if (builtIn) {
    throw new ApiError(400, `Only functionDeclarations tools are supported by this gateway (got ${Object.keys(builtIn).join(', ') || 'an empty tool'}).`, {
      code: 'unsupported_tool',
      param: 'tools',
    })
  }
  return parsed.data
}

const textOf = (parts: Part[]) =>
  parts
    .filter((p) => typeof p.text === 'string' && !p.thought)
    .map((p) => p.text)
    .join('')

function userContent(parts: Part[]): string | Record<string, unknown>[] {
  const out: Record<string, unknown>[] = []
  for (const p of parts) {
    if (p.thought) continue
    if (typeof p.text === 'string') out.push({ type: 'text', text: p.text })
    else if (p.inlineData) out.push({ type: 'image_url', image_url: { url: `data:${p.inlineData.mimeType};base64,${p.inlineData.data}` } })
    else if (p.fileData) out.push({ type: 'image_url', image_url: { url: p.fileData.fileUri } })
  }
  return out.every((p) => p.type === 'text') ? out.map((p) => p.text).join('') : out
}

/** The chat messages of a Gemini conversation; call ids are `call_<n>`, answered by name in order. */
export function chatMessages(req: GenerateRequest): Record<string, unknown>[] {
  const messages: Record<string, unknown>[] = []
  const system = req.systemInstruction
    ? req.systemInstruction.parts
        .map((p) => p.text ?? '')
        .filter(Boolean)
        .join('\n')
    : ''
  if (system) messages.push({ role: 'system', content: system })
  const pending: { id: string; name: string }[] = []
  let calls = 0
  for (const c of req.contents) {
    if (c.role === 'model') {
      const toolCalls = c.parts
        .filter((p) => p.functionCall)
        .map((p) => {
          const id = p.functionCall!.id || `call_${++calls}`
          pending.push({ id, name: p.functionCall!.name })
          return { id, type: 'function', function: { name: p.functionCall!.name, arguments: JSON.stringify(p.functionCall!.args ?? {}) } }
        })
      const said = textOf(c.parts)
      if (said || toolCalls.length) messages.push({ role: 'assistant', content: said || null, ...(toolCalls.length ? { tool_calls: toolCalls } : {}) })
      continue
    }
    for (const p of c.parts) {
      if (!p.functionResponse) continue
      const at = pending.findIndex((x) => (p.functionResponse!.id ? x.id === p.functionResponse!.id : x.name === p.functionResponse!.name))
      const id = at >= 0 ? pending.splice(at, 1)[0]!.id : (p.functionResponse.id ?? `call_${++calls}`)
      messages.push({ role: 'tool', tool_call_id: id, content: JSON.stringify(p.functionResponse.response ?? {}) })
    }
    const rest = c.parts.filter((p) => !p.functionResponse)
    const said = userContent(rest)
    if (said.length) messages.push({ role: 'user', content: said })
  }
  if (!messages.some((m) => m.role !== 'system')) throw new ApiError(400, 'contents must contain at least one part', { param: 'contents' })
  return messages
}

export function toChatRequest(req: GenerateRequest, model: string, stream: boolean): Record<string, unknown> {
  const chat: Record<string, unknown> = { model, messages: chatMessages(req) }
  const g = req.generationConfig ?? {}
  if (g.temperature !== undefined) chat.temperature = g.temperature
  if (g.topP !== undefined) chat.top_p = g.topP
  if (g.topK !== undefined) chat.top_k = g.topK
  if (g.maxOutputTokens !== undefined) chat.max_tokens = g.maxOutputTokens + thinkingBudgetOf(g)
  if (g.candidateCount !== undefined) chat.n = g.candidateCount
  if (g.presencePenalty !== undefined) chat.presence_penalty = g.presencePenalty
  if (g.frequencyPenalty !== undefined) chat.frequency_penalty = g.frequencyPenalty
  if (g.seed !== undefined) chat.seed = g.seed
  // OpenAI takes at most four stop sequences.
  if (g.stopSequences?.length) chat.stop = g.stopSequences.slice(0, 4)
  const schema = g.responseJsonSchema ?? g.responseSchema
  if (schema) chat.response_format = { type: 'json_schema', json_schema: { name: 'response', schema } }
  else if (g.responseMimeType === 'application/json') chat.response_format = { type: 'json_object' }
  const declarations = (req.tools ?? []).flatMap((t) => t.functionDeclarations ?? [])
  if (declarations.length) {
    chat.tools = declarations.map((d) => ({
      type: 'function',
      function: {
        name: d.name,
        ...(d.description ? { description: d.description } : {}),
        parameters: d.parametersJsonSchema ?? d.parameters ?? { type: 'object', properties: {} },
      },
    }))
    const cfg = req.toolConfig?.functionCallingConfig
    if (cfg?.mode === 'NONE') chat.tool_choice = 'none'
    else if (cfg?.mode === 'ANY' || cfg?.mode === 'VALIDATED') {
      const names = cfg.allowedFunctionNames ?? []
      chat.tool_choice = names.length === 1 ? { type: 'function', function: { name: names[0] } } : 'required'
    }
  }
  if (stream) {
    chat.stream = true
    chat.stream_options = { include_usage: true }
  }
  return chat
}

// ---- embeddings -------------------------------------------------------------------------------

const embedOne = z.looseObject({
  model: z.string().max(200).optional(),
  content: z.looseObject({ parts: z.array(part).min(1) }),
  outputDimensionality: z.number().int().min(1).max(65_536).optional(),
})
const embedBatch = z.looseObject({ requests: z.array(embedOne).min(1, 'requests must not be empty').max(2048) })

/** embedContent / batchEmbedContents → an OpenAI embeddings body (one input per request). */
export function toEmbeddingsRequest(body: unknown, model: string, batch: boolean): Record<string, unknown> {
  const parsed = batch ? embedBatch.safeParse(body) : embedOne.safeParse(body)
  if (!parsed.success) throw validationError(parsed.error)
  const requests = batch ? (parsed.data as z.infer<typeof embedBatch>).requests : [parsed.data as z.infer<typeof embedOne>]
  const input = requests.map((r) => textOf(r.content.parts))
  const dims = requests[0]!.outputDimensionality
  return { model, input, ...(dims ? { dimensions: dims } : {}) }
}

/** The explicit positive thinking budget of a generationConfig (0 when dynamic, off or unset). */
function thinkingBudgetOf(g: Record<string, unknown> | undefined): number {
  const budget = (g?.thinkingConfig as { thinkingBudget?: unknown } | undefined)?.thinkingBudget
  return typeof budget === 'number' && budget > 0 ? budget : 0
}

/**
 * A native Gemini body whose output (answer plus an explicit thinking budget) stays within `limit`,
 * the number the wallet held for: the client's own pair when it fits, else (a cap the balance set)
 * the budget keeps at most half of the limit and maxOutputTokens the rest.
 */
export function withGeminiOutputLimit(body: Record<string, unknown>, limit: number | undefined): Record<string, unknown> {
  if (limit === undefined) return body
  const g = { ...((body.generationConfig as Record<string, unknown> | undefined) ?? {}) }
  const asked = typeof g.maxOutputTokens === 'number' ? g.maxOutputTokens : undefined
  const budget = thinkingBudgetOf(g)
  if (asked !== undefined && asked + budget <= limit) return body
  const kept = Math.min(budget, Math.floor(limit / 2))
  if (kept > 0) g.thinkingConfig = { ...(g.thinkingConfig as Record<string, unknown>), thinkingBudget: kept }
  g.maxOutputTokens = limit - kept
  return { ...body, generationConfig: g }
}
