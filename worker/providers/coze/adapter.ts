/**
 * Coze (type 38): a bot answers through the open_api v2 chat endpoint. The model name is
 * `coze-{bot_id}` (or the bot id itself); the last user message is the query and the earlier turns
 * the chat history. Only `answer` messages are returned; Coze reports no usage (the gateway counts).
 */
import type { Usage } from '../../billing/formula'
import type { SseEvent } from '../../../shared/contract/sse'
import { textOf, type ChatRequest } from '../chat-types'
import type { ProviderAdapter, UpstreamError } from '../types'
import { errorFromBody, joinUrl } from '../url'
import { MalformedUpstreamError, upstreamJson } from '../../lib/upstream-error'
import { ConvertedStream } from '../openai/chunk'

export const COZE_BASE_URL = 'https://api.coze.com'

export const botIdOf = (model: string) => model.replace(/^coze-/, '')

export function toCozeRequest(req: ChatRequest, model: string, stream: boolean): Record<string, unknown> {
  const turns = req.messages.filter((m) => m.role === 'user' || m.role === 'assistant').map((m) => ({ role: m.role, content: textOf(m.content), content_type: 'text' }))
  const lastUser = turns.map((t) => t.role).lastIndexOf('user')
  const system = req.messages.filter((m) => m.role === 'system' || m.role === 'developer').map((m) => textOf(m.content))
  const query = lastUser >= 0 ? turns[lastUser]!.content : ''
  const history = turns.filter((_, i) => i !== lastUser)
  // A bot has its own persona; a system message is passed as the first history turn.
  if (system.length) history.unshift({ role: 'user', content: system.join('\n\n'), content_type: 'text' })
  return { bot_id: botIdOf(model), user: req.user || 'gateway', query, chat_history: history, stream }
}

/** Coze answers failures with HTTP 200 and a non-zero `code`. */
export function cozeError(body: any): UpstreamError | undefined {
  if (body?.event === 'error') {
    const e = body.error_information ?? {}
    return { message: String(e.err_msg ?? e.msg ?? 'Coze stream error'), code: e.err_code != null ? String(e.err_code) : undefined }
  }
  return body && typeof body.code === 'number' && body.code !== 0 ? { message: String(body.msg ?? 'Coze error'), code: String(body.code) } : undefined
}

class CozeStream extends ConvertedStream {
  private started = false

  onEvent(event: SseEvent): string[] {
    let data: any
    try {
      data = JSON.parse(event.data)
    } catch {
      return []
    }
    const error = cozeError(data)
    if (error) {
      this.failure = error
      return []
    }
    if (data.event === 'done') return [this.chunk({}, 'stop')]
    const m = data.message
    if (data.event !== 'message' || m?.type !== 'answer' || typeof m.content !== 'string' || !m.content) return []
    const delta: Record<string, unknown> = { content: m.content }
    if (!this.started) delta.role = 'assistant'
    this.started = true
    this.content += m.content
    return [this.chunk(delta)]
  }

  usage(): Usage | undefined {
    return undefined
  }
}

export const cozeAdapter: ProviderAdapter = {
  supports: (op) => op === 'chat',
  buildRequest(call, channel) {
    return new Request(joinUrl(channel.baseUrl || COZE_BASE_URL, '/open_api/v2/chat'), {
      method: 'POST',
      headers: { authorization: `Bearer ${channel.key}`, 'content-type': 'application/json', accept: '*/*' },
      body: JSON.stringify(toCozeRequest(call.json as unknown as ChatRequest, call.model, call.stream)),
    })
  },
  async parseResponse(call, res) {
    const body = await upstreamJson<any>(res)
    const error = cozeError(body)
    if (error) throw new MalformedUpstreamError(`Coze error ${error.code}: ${error.message}`)
    const content = (body.messages ?? [])
      .filter((m: any) => m.type === 'answer')
      .map((m: any) => String(m.content ?? ''))
      .join('')
    return {
      kind: 'json',
      body: {
        id: `chatcmpl-${body.conversation_id ?? crypto.randomUUID()}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: call.model,
        choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
      },
      text: content,
    }
  },
  createStream: (call) => new CozeStream(call),
  parseError(_status, body) {
    try {
      const error = cozeError(JSON.parse(body))
      if (error) return error
    } catch {
      // not JSON
    }
    return errorFromBody(body)
  },
}
