/**
 * Anthropic Messages request → internal OpenAI chat body: the zod schema at the route edge (bounded
 * numbers, known roles and blocks), system prompt, text/image/tool_use/tool_result blocks,
 * stop_sequences, tools and tool_choice. Thinking and cache_control are not carried (see README).
 */
import { z } from 'zod'
import { ApiError } from '../../../lib/errors'
import { validationError } from '../../../lib/validate'

const text = z.looseObject({ type: z.literal('text'), text: z.string() })
const image = z.looseObject({
  type: z.literal('image'),
  source: z.discriminatedUnion('type', [
    z.looseObject({ type: z.literal('base64'), media_type: z.string().min(1).max(100), data: z.string() }),
    z.looseObject({ type: z.literal('url'), url: z.string().min(1) }),
  ]),
})
const toolUse = z.looseObject({ type: z.literal('tool_use'), id: z.string().min(1).max(200), name: z.string().min(1).max(200), input: z.unknown() })
const toolResult = z.looseObject({
  type: z.literal('tool_result'),
  tool_use_id: z.string().min(1).max(200),
  content: z.union([z.string(), z.array(z.looseObject({ type: z.string() }))]).optional(),
  is_error: z.boolean().optional(),
})
const thinking = z.looseObject({ type: z.enum(['thinking', 'redacted_thinking']) })
const document = z.looseObject({ type: z.literal('document'), source: z.looseObject({ type: z.string() }) })
const block = z.discriminatedUnion('type', [text, image, toolUse, toolResult, thinking, document], {
  error: 'content blocks must be text, image, document, tool_use, tool_result or thinking',
})

export const messagesSchema = z.looseObject({
  model: z.string({ error: 'model is required' }).trim().min(1, 'model is required').max(200),
  max_tokens: z.number({ error: 'max_tokens is required' }).int().min(1).max(10_000_000),
  messages: z
    .array(z.looseObject({ role: z.enum(['user', 'assistant']), content: z.union([z.string(), z.array(block)]) }), { error: 'messages must be an array' })
    .min(1, 'messages must not be empty'),
  system: z.union([z.string(), z.array(text)]).optional(),
  stop_sequences: z.array(z.string().min(1).max(1000)).max(16).optional(),
  temperature: z.number().min(0).max(1).optional(),
  top_p: z.number().min(0).max(1).optional(),
  top_k: z.number().int().min(0).max(1_000_000).optional(),
  stream: z.boolean().optional(),
  tools: z
    .array(
      z.looseObject({
        name: z.string().min(1).max(200),
        description: z.string().optional(),
        input_schema: z.record(z.string(), z.unknown(), { error: 'only custom tools with an input_schema are supported' }),
      })
    )
    .max(512)
    .optional(),
  tool_choice: z
    .looseObject({ type: z.enum(['auto', 'any', 'tool', 'none']), name: z.string().min(1).max(200).optional(), disable_parallel_tool_use: z.boolean().optional() })
    .optional(),
  thinking: z.looseObject({ type: z.string(), budget_tokens: z.number().int().min(0).max(10_000_000).optional() }).optional(),
  metadata: z.looseObject({ user_id: z.string().max(256).nullish() }).optional(),
})

/** count_tokens takes the same body without max_tokens. */
export const countTokensSchema = messagesSchema.extend({ max_tokens: z.number().int().min(1).max(10_000_000).optional() })

export type MessagesRequest = z.infer<typeof countTokensSchema>
type Block = z.infer<typeof block>
type Part = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } }

const joinText = (blocks: { type: string; text?: unknown }[]) => blocks.map((b) => (b.type === 'text' && typeof b.text === 'string' ? b.text : '')).join('')

function documentPart(b: Extract<Block, { type: 'document' }>): Part {
  const source = b.source as { type: string; data?: unknown; media_type?: unknown }
  if (source.type === 'text' && typeof source.data === 'string') return { type: 'text', text: source.data }
  throw new ApiError(400, 'Only plain-text document blocks can be sent to this model; send PDFs as text or images.', {
    code: 'unsupported_content',
    param: 'messages',
  })
}

function userMessages(content: string | Block[]): Record<string, unknown>[] {
  if (typeof content === 'string') return [{ role: 'user', content }]
  const out: Record<string, unknown>[] = []
  const parts: Part[] = []
  for (const b of content) {
    if (b.type === 'tool_result') {
      const result = typeof b.content === 'string' ? b.content : joinText(b.content ?? [])
      out.push({ role: 'tool', tool_call_id: b.tool_use_id, content: b.is_error ? `Error: ${result}` : result })
    } else if (b.type === 'text') parts.push({ type: 'text', text: b.text })
    else if (b.type === 'image') {
      const s = b.source
      parts.push({ type: 'image_url', image_url: { url: s.type === 'base64' ? `data:${s.media_type};base64,${s.data}` : s.url } })
    } else if (b.type === 'document') parts.push(documentPart(b))
  }
  if (parts.length) out.push({ role: 'user', content: parts.every((p) => p.type === 'text') ? parts.map((p) => (p as { text: string }).text).join('') : parts })
  return out
}

function assistantMessage(content: string | Block[]): Record<string, unknown> | undefined {
  if (typeof content === 'string') return content ? { role: 'assistant', content } : undefined
  const calls = content
    .filter((b): b is Extract<Block, { type: 'tool_use' }> => b.type === 'tool_use')
    .map((b) => ({ id: b.id, type: 'function', function: { name: b.name, arguments: JSON.stringify(b.input ?? {}) } }))
  const said = joinText(content as { type: string; text?: unknown }[])
  if (!said && !calls.length) return undefined
  return { role: 'assistant', content: said || null, ...(calls.length ? { tool_calls: calls } : {}) }
}

function toolChoice(choice: NonNullable<MessagesRequest['tool_choice']>): unknown {
  if (choice.type === 'any') return 'required'
  if (choice.type === 'none') return 'none'
  if (choice.type === 'tool') {
    if (!choice.name) throw new ApiError(400, 'tool_choice.name is required when tool_choice.type is "tool"', { param: 'tool_choice' })
    return { type: 'function', function: { name: choice.name } }
  }
  return 'auto'
}

/** Parses and validates a Messages body (throws the 400 the route renders). */
export function parseMessages(body: unknown, schema: typeof messagesSchema | typeof countTokensSchema = messagesSchema): MessagesRequest {
  const parsed = schema.safeParse(body)
  if (!parsed.success) throw validationError(parsed.error)
  return parsed.data
}

/** The chat messages of a Messages request (system first, tool results as `tool` messages). */
export function chatMessages(req: MessagesRequest): Record<string, unknown>[] {
  const messages: Record<string, unknown>[] = []
  const system = typeof req.system === 'string' ? req.system : joinText(req.system ?? [])
  if (system) messages.push({ role: 'system', content: system })
  for (const m of req.messages) {
    if (m.role === 'user') messages.push(...userMessages(m.content))
    else {
      const said = assistantMessage(m.content)
      if (said) messages.push(said)
    }
  }
  if (!messages.some((m) => m.role !== 'system')) throw new ApiError(400, 'messages: every message is empty', { param: 'messages' })
  return messages
}

export function chatFromMessages(req: MessagesRequest & { max_tokens: number }): Record<string, unknown> {
  const chat: Record<string, unknown> = { model: req.model, messages: chatMessages(req), max_tokens: req.max_tokens }
  if (req.temperature !== undefined) chat.temperature = req.temperature
  if (req.top_p !== undefined) chat.top_p = req.top_p
  if (req.top_k !== undefined) chat.top_k = req.top_k
  if (req.stop_sequences?.length) chat.stop = req.stop_sequences
  if (req.metadata?.user_id) chat.user = req.metadata.user_id
  if (req.tools?.length) {
    chat.tools = req.tools.map((t) => ({
      type: 'function',
      function: { name: t.name, ...(t.description ? { description: t.description } : {}), parameters: t.input_schema },
    }))
    if (req.tool_choice) {
      chat.tool_choice = toolChoice(req.tool_choice)
      if (req.tool_choice.disable_parallel_tool_use) chat.parallel_tool_calls = false
    }
  }
  if (req.stream) {
    chat.stream = true
    // The answer's message_delta carries usage: ask the relay for the trailing usage chunk.
    chat.stream_options = { include_usage: true }
  }
  return chat
}
