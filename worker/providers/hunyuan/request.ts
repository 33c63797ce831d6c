/** OpenAI chat request → Hunyuan ChatCompletions body (PascalCase; images as Contents; tools with JSON-string parameters). */
import { imageUrlOf, stopList, textOf, type ChatMessage, type ChatRequest } from '../chat-types'

function message(m: ChatMessage): Record<string, unknown> {
  const role = m.role === 'developer' ? 'system' : m.role === 'function' ? 'tool' : m.role
  const out: Record<string, unknown> = { Role: role }
  if (Array.isArray(m.content) && m.content.some((p) => p.type === 'image_url')) {
    out.Contents = m.content.map((p) => (p.type === 'image_url' ? { Type: 'image_url', ImageUrl: { Url: imageUrlOf(p) ?? '' } } : { Type: 'text', Text: p.text ?? '' }))
  } else out.Content = textOf(m.content)
  if (m.tool_calls?.length) {
    out.ToolCalls = m.tool_calls.map((c) => ({ Id: c.id, Type: 'function', Function: { Name: c.function.name, Arguments: c.function.arguments } }))
  }
  if (m.tool_call_id) out.ToolCallId = m.tool_call_id
  return out
}

export function toHunyuanRequest(req: ChatRequest, model: string, stream: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = { Model: model, Messages: req.messages.map(message), Stream: stream }
  if (req.temperature != null) out.Temperature = req.temperature
  if (req.top_p != null) out.TopP = req.top_p
  const stop = stopList(req.stop)
  if (stop) out.Stop = stop
  if (req.tools?.length) {
    out.Tools = req.tools.map((t) => ({
      Type: 'function',
      Function: { Name: t.function.name, Description: t.function.description ?? '', Parameters: JSON.stringify(t.function.parameters ?? { type: 'object', properties: {} }) },
    }))
    const choice = req.tool_choice
    if (choice === 'none' || choice === 'auto') out.ToolChoice = choice
    else if (choice && typeof choice === 'object') {
      out.ToolChoice = 'custom'
      out.CustomTool = out.Tools && (out.Tools as any[]).find((t) => t.Function.Name === choice.function.name)
    }
  }
  return out
}
