/** The parts of the OpenAI chat request that translating adapters read (everything else passes through or is ignored). */

export interface ChatContentPart {
  type: string
  text?: string
  image_url?: { url: string; detail?: string } | string
}

export interface ChatToolCall {
  id: string
  type?: string
  function: { name: string; arguments: string }
}

export interface ChatMessage {
  role: 'system' | 'developer' | 'user' | 'assistant' | 'tool' | 'function'
  content?: string | ChatContentPart[] | null
  name?: string
  tool_calls?: ChatToolCall[]
  tool_call_id?: string
}

export interface ChatTool {
  type: 'function'
  function: { name: string; description?: string; parameters?: Record<string, unknown> }
}

/** Optional parameters may arrive as explicit `null` (OpenAI documents them as nullable): treat null as absent. */
export interface ChatRequest {
  model: string
  messages: ChatMessage[]
  stream?: boolean | null
  max_tokens?: number | null
  max_completion_tokens?: number | null
  temperature?: number | null
  top_p?: number | null
  top_k?: number | null
  n?: number | null
  stop?: string | string[] | null
  tools?: ChatTool[] | null
  tool_choice?: 'auto' | 'none' | 'required' | { type: 'function'; function: { name: string } } | null
  response_format?: { type: string; json_schema?: { schema?: Record<string, unknown> } } | null
  user?: string | null
}

export const textOf = (content: ChatMessage['content']): string =>
  typeof content === 'string' ? content : Array.isArray(content) ? content.map((p) => (p.type === 'text' ? (p.text ?? '') : '')).join('') : ''

export const imageUrlOf = (part: ChatContentPart): string | undefined => (typeof part.image_url === 'string' ? part.image_url : part.image_url?.url)

/** data:<mime>;base64,<data> → parts, or undefined for a plain URL. */
export function parseDataUrl(url: string): { mimeType: string; data: string } | undefined {
  const m = url.match(/^data:([^;,]+);base64,(.*)$/s)
  return m ? { mimeType: m[1]!, data: m[2]! } : undefined
}

export function parseToolArguments(args: string): Record<string, unknown> {
  try {
    const v = JSON.parse(args || '{}')
    return v && typeof v === 'object' && !Array.isArray(v) ? v : { value: v }
  } catch {
    return { raw: args }
  }
}

export const stopList = (stop: ChatRequest['stop']): string[] | undefined => (stop == null ? undefined : Array.isArray(stop) ? (stop.length ? stop : undefined) : [stop])

/** Appends a turn to `messages`, merged into the last one when it has the same role (APIs that want roles to alternate); an empty turn is dropped. */
export function pushTurn<Role, Block>(messages: { role: Role; content: Block[] }[], role: Role, content: Block[]): void {
  if (content.length === 0) return
  const last = messages[messages.length - 1]
  if (last && last.role === role) last.content.push(...content)
  else messages.push({ role, content })
}
