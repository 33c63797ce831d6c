/** OpenAI chat request → Bedrock Converse request (system blocks, images as bytes, tools, tool results). */
import { ApiError } from '../../lib/errors'
import { imageUrlOf, parseDataUrl, parseToolArguments, stopList, textOf, type ChatMessage, type ChatRequest, pushTurn } from '../chat-types'

type Block = Record<string, unknown>
interface ConverseMessage {
  role: 'user' | 'assistant'
  content: Block[]
}

const IMAGE_FORMATS: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpeg', 'image/jpg': 'jpeg', 'image/gif': 'gif', 'image/webp': 'webp' }

function userBlocks(m: ChatMessage): Block[] {
  if (typeof m.content === 'string') return m.content ? [{ text: m.content }] : []
  const blocks: Block[] = []
  for (const part of m.content ?? []) {
    if (part.type === 'text' && part.text) blocks.push({ text: part.text })
    else if (part.type === 'image_url') {
      const data = parseDataUrl(imageUrlOf(part) ?? '')
      const format = data && IMAGE_FORMATS[data.mimeType]
      // Converse takes image bytes only; the gateway does not download client URLs on its behalf.
      if (!data || !format) throw new ApiError(400, 'Bedrock accepts images only as base64 data: URLs (png, jpeg, gif or webp)', { param: 'messages' })
      blocks.push({ image: { format, source: { bytes: data.data } } })
    }
  }
  return blocks
}

function assistantBlocks(m: ChatMessage): Block[] {
  const blocks: Block[] = []
  const text = textOf(m.content)
  if (text) blocks.push({ text })
  for (const call of m.tool_calls ?? []) {
    blocks.push({ toolUse: { toolUseId: call.id, name: call.function.name, input: parseToolArguments(call.function.arguments) } })
  }
  return blocks
}

export function toConverseRequest(req: ChatRequest, model: string): Record<string, unknown> {
  const system: Block[] = []
  const messages: ConverseMessage[] = []
  let usesTools = false
  const push = (role: ConverseMessage['role'], content: Block[]) => pushTurn(messages, role, content)
  for (const m of req.messages) {
    switch (m.role) {
      case 'system':
      case 'developer': {
        const text = textOf(m.content)
        if (text) system.push({ text })
        break
      }
      case 'assistant':
        if (m.tool_calls?.length) usesTools = true
        push('assistant', assistantBlocks(m))
        break
      case 'tool':
      case 'function':
        usesTools = true
        push('user', [{ toolResult: { toolUseId: m.tool_call_id ?? m.name ?? '', content: [{ text: textOf(m.content) }] } }])
        break
      default:
        push('user', userBlocks(m))
    }
  }
  const out: Record<string, unknown> = { messages }
  if (system.length) out.system = system
  const inference: Record<string, unknown> = {}
  const maxTokens = req.max_completion_tokens ?? req.max_tokens
  if (maxTokens != null) inference.maxTokens = maxTokens
  if (req.temperature != null) inference.temperature = req.temperature
  if (req.top_p != null) inference.topP = req.top_p
  const stop = stopList(req.stop)
  if (stop) inference.stopSequences = stop
  if (Object.keys(inference).length) out.inferenceConfig = inference
  if (req.top_k != null && model.includes('anthropic.')) out.additionalModelRequestFields = { top_k: req.top_k }
  const choice = req.tool_choice
  // Converse needs the tool list whenever the history holds tool calls, even with tool_choice "none".
  if (req.tools?.length && (choice !== 'none' || usesTools)) {
    const toolConfig: Record<string, unknown> = {
      tools: req.tools.map((t) => ({
        toolSpec: {
          name: t.function.name,
          ...(t.function.description ? { description: t.function.description } : {}),
          inputSchema: { json: t.function.parameters ?? { type: 'object', properties: {} } },
        },
      })),
    }
    if (choice === 'required') toolConfig.toolChoice = { any: {} }
    else if (choice && typeof choice === 'object') toolConfig.toolChoice = { tool: { name: choice.function.name } }
    else if (choice === 'auto') toolConfig.toolChoice = { auto: {} }
    out.toolConfig = toolConfig
  }
  return out
}
