/**
 * Worker-test mock of the Telegram Bot API at fetch level: every call to https://tg.test is
 * answered by the in-memory Bot API of scripts/mock-telegram-api.mjs (the same one the e2e mock
 * server speaks) and recorded; other fetches go out unchanged.
 */
import { vi } from 'vitest'
import { createBotApiState, handleBotApi, sentMessages, type BotApiState } from '../../scripts/mock-telegram-api.mjs'

export const TG_BASE = 'https://tg.test'

export function mockTelegram() {
  const state: BotApiState = createBotApiState()
  const real = globalThis.fetch
  const spy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = new Request(input, init)
    if (!req.url.startsWith(TG_BASE)) return real(input, init)
    const url = new URL(req.url)
    const text = req.method === 'POST' ? await req.text() : ''
    const params = text ? JSON.parse(text) : Object.fromEntries(url.searchParams)
    const answer = handleBotApi(state, url.pathname, params)
    return new Response(JSON.stringify(answer.body), { status: answer.status, headers: { 'content-type': 'application/json' } })
  })
  return {
    state,
    sent: (chatId?: number) => sentMessages(state, chatId),
    calls: (method: string) => state.calls.filter((c) => c.method === method),
    restore: () => spy.mockRestore(),
  }
}
