/**
 * OpenAI Responses request → internal OpenAI chat body: the zod schema at the route edge (bounded
 * numbers, function tools, and mcp tools that the MCP tool loop runs: relay/mcp-loop/), instructions, input as a string or items (messages with text,
 * image and file parts, function_call and function_call_output), text.format, reasoning.effort.
 * The conversation of a stored previous response is prepended by the caller.
 */
import { z } from 'zod'
import { ApiError } from '../../../lib/errors'
import { validationError } from '../../../lib/validate'
import { type McpToolSpec, mcpToolSchema } from '../../mcp-loop/mcp-tool-spec'

const part = z.looseObject({ type: z.enum(['input_text', 'output_text', 'refusal', 'input_image', 'input_file']) })
const message = z.looseObject({
  type: z.literal('message').optional(),
  role: z.enum(['user', 'assistant', 'system', 'developer']),
  content: z.union([z.string(), z.array(part)]),
})
const functionCall = z.looseObject({ type: z.literal('function_call'), call_id: z.string().min(1).max(200), name: z.string().min(1).max(200), arguments: z.string() })
const functionOutput = z.looseObject({
  type: z.literal('function_call_output'),
  call_id: z.string().min(1).max(200),
  output: z.union([z.string(), z.array(part)]),
})
const reasoning = z.looseObject({ type: z.literal('reasoning') })
const item = z.union([message, functionCall, functionOutput, reasoning], {
  error: 'input items must be messages, function_call, function_call_output or reasoning',
})

const functionTool = z.looseObject({
  type: z.literal('function', { error: 'only function tools and mcp tools naming a registered tool server are supported' }),
  name: z.string().min(1).max(200),
  description: z.string().nullish(),
  parameters: z.record(z.string(), z.unknown()).nullish(),
  strict: z.boolean().nullish(),
})

export const responsesSchema = z.looseObject({
  model: z.string({ error: 'model is required' }).trim().min(1, 'model is required').max(200),
  input: z.union([z.string(), z.array(item)], { error: 'input must be a string or an array of items' }),
  instructions: z.string().nullish(),
  max_output_tokens: z.number().int().min(1).max(10_000_000).nullish(),
  temperature: z.number().min(0).max(2).nullish(),
  top_p: z.number().min(0).max(1).nullish(),
  tools: z
    .array(z.union([functionTool, mcpToolSchema]))
    .max(512)
    .nullish(),
  tool_choice: z.union([z.enum(['auto', 'none', 'required']), z.looseObject({ type: z.literal('function'), name: z.string().min(1).max(200) })]).nullish(),
  parallel_tool_calls: z.boolean().nullish(),
  previous_response_id: z.string().min(1).max(200).nullish(),
  store: z.boolean().nullish(),
  // The supplier would go on generating after this request ended, billed to nobody (premium-options.ts).
  background: z.literal(false, { error: 'background mode is not supported by this gateway; send the request without "background": true' }).nullish(),
  stream: z.boolean().nullish(),
  reasoning: z.looseObject({ effort: z.enum(['minimal', 'low', 'medium', 'high']).nullish() }).nullish(),
  text: z
    .looseObject({
      format: z
        .looseObject({
          type: z.enum(['text', 'json_object', 'json_schema']),
          name: z.string().max(200).optional(),
          schema: z.record(z.string(), z.unknown()).optional(),
          strict: z.boolean().nullish(),
        })
        .optional(),
    })
    .nullish(),
  metadata: z.record(z.string(), z.string()).nullish(),
  user: z.string().max(256).nullish(),
  /** The request's fallback models (OpenRouter's shape), checked by relay-input.ts. */
  models: z.unknown().optional(),
})

export type ResponsesRequest = z.infer<typeof responsesSchema>
type Part = z.infer<typeof part>
export type ChatMessage = Record<string, unknown>

export function parseResponsesRequest(body: unknown): ResponsesRequest {
  const parsed = responsesSchema.safeParse(body)
  if (!parsed.success) throw validationError(parsed.error)
  return parsed.data
}

const unsupported = (what: string) => new ApiError(400, `${what} is not supported by this gateway; send the content inline.`, { code: 'unsupported_content', param: 'input' })

function chatPart(p: Part): Record<string, unknown> {
  const o = p as Record<string, any>
  if (p.type === 'input_image') {
    if (typeof o.image_url !== 'string') throw unsupported('input_image with file_id')
    return { type: 'image_url', image_url: { url: o.image_url, ...(o.detail ? { detail: o.detail } : {}) } }
  }
  if (p.type === 'input_file') {
    if (typeof o.file_data !== 'string') throw unsupported('input_file without file_data')
    return { type: 'file', file: { file_data: o.file_data, ...(o.filename ? { filename: o.filename } : {}) } }
  }
  return { type: 'text', text: String(p.type === 'refusal' ? (o.refusal ?? '') : (o.text ?? '')) }
}

function chatContent(content: string | Part[]): string | Record<string, unknown>[] {
  if (typeof content === 'string') return content
  const parts = content.map(chatPart)
  return parts.every((p) => p.type === 'text') ? parts.map((p) => p.text).join('') : parts
}

/** The request's own input as chat messages (without instructions or history). */
export function inputMessages(req: ResponsesRequest): ChatMessage[] {
  if (typeof req.input === 'string') return [{ role: 'user', content: req.input }]
  const out: ChatMessage[] = []
  for (const it of req.input) {
    if (it.type === 'function_call') {
      const call = { id: it.call_id, type: 'function', function: { name: it.name, arguments: it.arguments } }
      const last = out[out.length - 1]
      if (last?.role === 'assistant') last.tool_calls = [...((last.tool_calls as unknown[]) ?? []), call]
      else out.push({ role: 'assistant', content: null, tool_calls: [call] })
    } else if (it.type === 'function_call_output') {
      const output = typeof it.output === 'string' ? it.output : it.output.map((p) => String((p as Record<string, unknown>).text ?? '')).join('')
      out.push({ role: 'tool', tool_call_id: it.call_id, content: output })
    } else if (it.type === 'reasoning') {
      continue
    } else {
      const m = it as z.infer<typeof message>
      out.push({ role: m.role === 'developer' ? 'system' : m.role, content: chatContent(m.content) })
    }
  }
  return out
}

type FunctionTool = z.infer<typeof functionTool>

export const functionToolsOf = (req: ResponsesRequest): FunctionTool[] => (req.tools ?? []).filter((t): t is FunctionTool => t.type === 'function')
export const mcpToolsOf = (req: ResponsesRequest): McpToolSpec[] => (req.tools ?? []).filter((t): t is McpToolSpec => t.type === 'mcp')

/** The chat body: instructions, then the stored conversation, then this input. */
export function toChatBody(req: ResponsesRequest, history: ChatMessage[]): Record<string, unknown> {
  const messages: ChatMessage[] = []
  if (req.instructions) messages.push({ role: 'system', content: req.instructions })
  messages.push(...history, ...inputMessages(req))
  if (!messages.some((m) => m.role !== 'system')) throw new ApiError(400, 'input must not be empty', { param: 'input' })
  const chat: Record<string, unknown> = { model: req.model, messages }
  if (req.max_output_tokens != null) chat.max_tokens = req.max_output_tokens
  if (req.temperature != null) chat.temperature = req.temperature
  if (req.top_p != null) chat.top_p = req.top_p
  if (req.user) chat.user = req.user
  if (req.models !== undefined && req.models !== null) chat.models = req.models
  if (req.reasoning?.effort) chat.reasoning_effort = req.reasoning.effort
  const tools = functionToolsOf(req)
  if (tools.length) {
    chat.tools = tools.map((t) => ({
      type: 'function',
      function: {
        name: t.name,
        ...(t.description ? { description: t.description } : {}),
        parameters: t.parameters ?? { type: 'object', properties: {} },
        ...(t.strict != null ? { strict: t.strict } : {}),
      },
    }))
    const choice = req.tool_choice
    if (choice) chat.tool_choice = typeof choice === 'string' ? choice : { type: 'function', function: { name: choice.name } }
    if (req.parallel_tool_calls != null) chat.parallel_tool_calls = req.parallel_tool_calls
  }
  const format = req.text?.format
  if (format?.type === 'json_object') chat.response_format = { type: 'json_object' }
  if (format?.type === 'json_schema') {
    chat.response_format = {
      type: 'json_schema',
      json_schema: { name: format.name ?? 'response', schema: format.schema ?? {}, ...(format.strict != null ? { strict: format.strict } : {}) },
    }
  }
  if (req.stream) {
    chat.stream = true
    chat.stream_options = { include_usage: true }
  }
  return chat
}
