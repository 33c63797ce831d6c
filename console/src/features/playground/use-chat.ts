/**
 * The conversation of the playground: messages in memory (mirrored to sessionStorage), sending a
 * turn as a streamed relay call whose pieces are appended to the answer as they arrive, stopping
 * it (AbortController; the partial answer stays) and clearing. The call is a React Query
 * mutation, so relay errors reach the global error toast like every other failed call.
 */
import { useCallback, useEffect, useRef, useState } from 'react'
import { useMutation } from '@tanstack/react-query'
import { loadMessages, saveMessages } from './session'
import { streamChat, type ChatRequest, type ChatTurn, type ChatUsage, type StreamResult } from './relay'
import type { PlaygroundSettings } from './schema'

export interface ChatMessage {
  id: string
  role: 'user' | 'assistant'
  content: string
  /** Assistant answers only. */
  status?: 'streaming' | 'done' | 'stopped' | 'error'
  model?: string
  usage?: ChatUsage | null
  error?: string
  /** Milliseconds from sending to the end of the answer. */
  duration?: number
}

let seq = 0
const newId = () => `${Date.now().toString(36)}-${(seq++).toString(36)}`

interface SendVariables {
  key: string
  request: ChatRequest
  answerId: string
  signal: AbortSignal
}

const isAbort = (err: unknown) => err instanceof DOMException && err.name === 'AbortError'

export function useChat() {
  const [messages, setMessages] = useState<ChatMessage[]>(loadMessages)
  const controller = useRef<AbortController | null>(null)
  const started = useRef(0)

  const patch = useCallback((id: string, change: (m: ChatMessage) => Partial<ChatMessage>) => {
    setMessages((list) => list.map((m) => (m.id === id ? { ...m, ...change(m) } : m)))
  }, [])

  const mutation = useMutation<StreamResult, Error, SendVariables>({
    mutationFn: ({ key, request, answerId, signal }) => streamChat(key, request, (piece) => patch(answerId, (m) => ({ content: m.content + piece })), signal),
    onSuccess: (result, { answerId }) => patch(answerId, () => ({ status: 'done', usage: result.usage, duration: Date.now() - started.current })),
    onError: (err, { answerId }) => patch(answerId, () => (isAbort(err) ? { status: 'stopped', duration: Date.now() - started.current } : { status: 'error', error: err.message })),
    onSettled: () => {
      controller.current = null
    },
  })

  const streaming = mutation.isPending

  useEffect(() => {
    if (!streaming) saveMessages(messages)
  }, [messages, streaming])

  // Leaving the page ends a running answer.
  useEffect(() => () => controller.current?.abort(), [])

  const send = useCallback(
    (text: string, key: string, settings: PlaygroundSettings) => {
      if (controller.current) return
      const question: ChatMessage = { id: newId(), role: 'user', content: text }
      const answer: ChatMessage = { id: newId(), role: 'assistant', content: '', status: 'streaming', model: settings.model }
      const history: ChatTurn[] = messages.filter((m) => m.role === 'user' || (m.content && m.status !== 'error')).map((m) => ({ role: m.role, content: m.content }))
      const turns: ChatTurn[] = [...(settings.system.trim() ? [{ role: 'system' as const, content: settings.system }] : []), ...history, { role: 'user', content: text }]
      const request: ChatRequest = {
        model: settings.model,
        messages: turns,
        temperature: settings.temperature,
        ...(settings.max_tokens ? { max_tokens: Number(settings.max_tokens) } : {}),
      }
      controller.current = new AbortController()
      started.current = Date.now()
      setMessages((list) => [...list, question, answer])
      mutation.mutate({ key, request, answerId: answer.id, signal: controller.current.signal })
    },
    [messages, mutation]
  )

  const stop = useCallback(() => controller.current?.abort(), [])

  const clear = useCallback(() => {
    controller.current?.abort()
    setMessages([])
  }, [])

  return { messages, streaming, send, stop, clear }
}
