/** OpenAI chat request → Gemini generateContent request (contents, system instruction, tools, images, JSON mode). */
import { imageUrlOf, parseDataUrl, parseToolArguments, stopList, textOf, type ChatMessage, type ChatRequest } from '../chat-types'
import { toGeminiParameters } from './schema'

type Part = Record<string, unknown>
interface Content {
  role: 'user' | 'model'
  parts: Part[]
}

const MIME_BY_EXT: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', webp: 'image/webp', gif: 'image/gif' }

function userParts(m: ChatMessage): Part[] {
  if (typeof m.content === 'string') return [{ text: m.content }]
  const parts: Part[] = []
  for (const p of m.content ?? []) {
    if (p.type === 'text') parts.push({ text: p.text ?? '' })
    else if (p.type === 'image_url') {
      const url = imageUrlOf(p) ?? ''
      const data = parseDataUrl(url)
      if (data) parts.push({ inlineData: { mimeType: data.mimeType, data: data.data } })
      else {
        const ext = url.split('?')[0]!.split('.').pop()?.toLowerCase() ?? ''
        parts.push({ fileData: { mimeType: MIME_BY_EXT[ext] ?? 'image/jpeg', fileUri: url } })
      }
    }
  }
  return parts
}

export function toGeminiRequest(req: ChatRequest): Record<string, unknown> {
  const system: string[] = []
  const contents: Content[] = []
  const toolNames = new Map<string, string>()
  const push = (role: Content['role'], parts: Part[]) => {
    if (parts.length === 0) return
    const last = contents[contents.length - 1]
    if (last && last.role === role) last.parts.push(...parts)
    else contents.push({ role, parts })
  }
  for (const m of req.messages) {
    if (m.role === 'system' || m.role === 'developer') system.push(textOf(m.content))
    else if (m.role === 'assistant') {
      const parts: Part[] = []
      const text = textOf(m.content)
      if (text) parts.push({ text })
      for (const call of m.tool_calls ?? []) {
        toolNames.set(call.id, call.function.name)
        parts.push({ functionCall: { name: call.function.name, args: parseToolArguments(call.function.arguments) } })
      }
      push('model', parts)
    } else if (m.role === 'tool' || m.role === 'function') {
      const name = toolNames.get(m.tool_call_id ?? '') ?? m.name ?? 'tool'
      push('user', [{ functionResponse: { name, response: { content: textOf(m.content) } } }])
    } else push('user', userParts(m))
  }
  const generationConfig: Record<string, unknown> = {}
  if (req.temperature != null) generationConfig.temperature = req.temperature
  if (req.top_p != null) generationConfig.topP = req.top_p
  if (req.top_k != null) generationConfig.topK = req.top_k
  const max = req.max_completion_tokens ?? req.max_tokens
  if (max != null) generationConfig.maxOutputTokens = max
  if (req.n != null) generationConfig.candidateCount = req.n
  const stop = stopList(req.stop)
  if (stop) generationConfig.stopSequences = stop
  if (req.response_format?.type === 'json_object' || req.response_format?.type === 'json_schema') {
    generationConfig.responseMimeType = 'application/json'
    const schema = req.response_format.json_schema?.schema
    if (schema) generationConfig.responseJsonSchema = schema
  }
  const out: Record<string, unknown> = { contents }
  if (system.length) out.systemInstruction = { parts: [{ text: system.join('\n\n') }] }
  if (Object.keys(generationConfig).length) out.generationConfig = generationConfig
  if (req.tools?.length) {
    out.tools = [
      {
        functionDeclarations: req.tools.map((t) => {
          const parameters = toGeminiParameters(t.function.parameters)
          return { name: t.function.name, description: t.function.description ?? '', ...(parameters ? { parameters } : {}) }
        }),
      },
    ]
    const choice = req.tool_choice
    if (choice === 'none') out.toolConfig = { functionCallingConfig: { mode: 'NONE' } }
    else if (choice === 'required') out.toolConfig = { functionCallingConfig: { mode: 'ANY' } }
    else if (choice && typeof choice === 'object') {
      out.toolConfig = { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [choice.function.name] } }
    }
  }
  return out
}
