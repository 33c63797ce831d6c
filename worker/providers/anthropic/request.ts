/** OpenAI chat request → Anthropic Messages request (system extraction, images, tools, tool results). */
import { imageUrlOf, parseDataUrl, parseToolArguments, stopList, textOf, type ChatMessage, type ChatRequest, pushTurn } from '../chat-types'

export const CLAUDE_DEFAULT_MAX_TOKENS = 8192

type Block = Record<string, unknown>
interface AnthropicMessage {
  role: 'user' | 'assistant'
  content: Block[]
}

function userBlocks(m: ChatMessage): Block[] {
  // Anthropic rejects empty text blocks.
  if (typeof m.content === 'string') return m.content ? [{ type: 'text', text: m.content }] : []
  const blocks: Block[] = []
  for (const part of m.content ?? []) {
    if (part.type === 'text') {
      if (part.text) blocks.push({ type: 'text', text: part.text })
    } else if (part.type === 'image_url') {
      const url = imageUrlOf(part) ?? ''
      const data = parseDataUrl(url)
      blocks.push({
        type: 'image',
        source: data ? { type: 'base64', media_type: data.mimeType, data: data.data } : { type: 'url', url },
      })
    }
  }
  return blocks
}

function assistantBlocks(m: ChatMessage): Block[] {
  const blocks: Block[] = []
  const text = textOf(m.content)
  if (text) blocks.push({ type: 'text', text })
  for (const call of m.tool_calls ?? []) {
    blocks.push({ type: 'tool_use', id: call.id, name: call.function.name, input: parseToolArguments(call.function.arguments) })
  }
  return blocks
}

export function toAnthropicRequest(req: ChatRequest, model: string, stream: boolean): Record<string, unknown> {
  const system: string[] = []
  const messages: AnthropicMessage[] = []
  const push = (role: AnthropicMessage['role'], content: Block[]) => pushTurn(messages, role, content)
  for (const m of req.messages) {
    switch (m.role) {
      case 'system':
      case 'developer':
        system.push(textOf(m.content))
        break
      case 'assistant':
        push('assistant', assistantBlocks(m))
        break
      case 'tool':
      case 'function':
        push('user', [{ type: 'tool_result', tool_use_id: m.tool_call_id ?? m.name ?? '', content: textOf(m.content) }])
        break
      default:
        push('user', userBlocks(m))
    }
  }
  const out: Record<string, unknown> = {
    model,
    messages,
    max_tokens: req.max_tokens ?? req.max_completion_tokens ?? CLAUDE_DEFAULT_MAX_TOKENS,
  }
  if (system.length) out.system = system.join('\n\n')
  if (stream) out.stream = true
  if (req.temperature != null) out.temperature = Math.min(1, Math.max(0, req.temperature))
  // Current Claude models refuse temperature and top_p together: temperature wins.
  if (req.top_p != null && req.temperature == null) out.top_p = req.top_p
  if (req.top_k != null) out.top_k = req.top_k
  const stop = stopList(req.stop)
  if (stop) out.stop_sequences = stop
  if (req.user) out.metadata = { user_id: req.user }
  if (req.tools?.length) {
    out.tools = req.tools.map((t) => ({
      name: t.function.name,
      description: t.function.description ?? '',
      input_schema: t.function.parameters ?? { type: 'object', properties: {} },
    }))
    const choice = req.tool_choice
    if (choice === 'none') out.tool_choice = { type: 'none' }
    else if (choice === 'required') out.tool_choice = { type: 'any' }
    else if (choice && typeof choice === 'object') out.tool_choice = { type: 'tool', name: choice.function.name }
  }
  return out
}
