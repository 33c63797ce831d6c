#!/usr/bin/env node
/**
 * Mock Telegram Bot API server for local trials and e2e tests (`node scripts/mock-telegram.mjs`).
 * Speaks the Bot API JSON protocol at /bot<token>/<method> (scripts/mock-telegram-api.mjs) with
 * long-polled getUpdates, and plays Telegram towards the gateway:
 *   POST /_mock/send     {from, text}  a user's message: delivered to the webhook (with its secret
 *                                      token) when one is set, else queued for getUpdates
 *   POST /_mock/press    {from, data}  an inline-button press, delivered the same way
 *   GET  /_mock/calls[?method=…]       the recorded Bot API calls
 *   GET  /_mock/state                  webhook, commands and queued updates
 * Set TelegramApiBase to its URL and TelegramBotToken to the printed token.
 * Options: PORT (default 3998), BOT_TOKEN.
 */
import http from 'node:http'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { callbackUpdate, createBotApiState, feed, handleBotApi, MOCK_BOT_TOKEN, textUpdate } from './mock-telegram-api.mjs'

const LONG_POLL_CAP_MS = 3000

async function readBody(req) {
  const chunks = []
  for await (const chunk of req) chunks.push(chunk)
  const text = Buffer.concat(chunks).toString('utf8')
  if (!text) return {}
  if ((req.headers['content-type'] ?? '').includes('json')) return JSON.parse(text)
  return Object.fromEntries(new URLSearchParams(text))
}

export async function startMockTelegram({ port = 3998, token = MOCK_BOT_TOKEN } = {}) {
  const state = createBotApiState(token)
  const waiters = new Set()
  const wake = () => {
    for (const w of waiters) w()
    waiters.clear()
  }

  async function deliver(update) {
    const queued = feed(state, update)
    if (!state.webhook.url) return (wake(), { queued: true, update: queued })
    state.updates = state.updates.filter((u) => u !== queued)
    const res = await fetch(state.webhook.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'X-Telegram-Bot-Api-Secret-Token': state.webhook.secret_token },
      body: JSON.stringify(queued),
    })
    if (!res.ok) Object.assign(state.webhook, { last_error_date: Math.floor(Date.now() / 1000), last_error_message: `Wrong response from the webhook: ${res.status}` })
    return { delivered: res.status, update: queued }
  }

  const server = http.createServer(async (req, res) => {
    const send = (status, body) => {
      res.writeHead(status, { 'content-type': 'application/json' })
      res.end(JSON.stringify(body))
    }
    try {
      const url = new URL(req.url ?? '/', 'http://mock')
      const body = req.method === 'POST' ? await readBody(req) : Object.fromEntries(url.searchParams)
      if (url.pathname === '/_mock/send') return send(200, await deliver(textUpdate(state, Number(body.from), String(body.text))))
      if (url.pathname === '/_mock/press') return send(200, await deliver(callbackUpdate(state, Number(body.from), String(body.data))))
      if (url.pathname === '/_mock/calls')
        return send(
          200,
          state.calls.filter((c) => !url.searchParams.get('method') || c.method === url.searchParams.get('method'))
        )
      if (url.pathname === '/_mock/state') return send(200, { webhook: state.webhook, commands: state.commands, updates: state.updates })
      if (url.pathname.endsWith('/getUpdates') && !state.webhook.url) {
        const offset = Number(body.offset ?? 0)
        const waitMs = Math.min(LONG_POLL_CAP_MS, Math.max(0, Number(body.timeout ?? 0)) * 1000)
        if (!state.updates.some((u) => u.update_id >= offset) && waitMs > 0) {
          await new Promise((resolve) => {
            const timer = setTimeout(resolve, waitMs)
            waiters.add(() => (clearTimeout(timer), resolve()))
          })
        }
      }
      const answer = handleBotApi(state, url.pathname, body)
      return send(answer.status, answer.body)
    } catch (err) {
      return send(500, { ok: false, error_code: 500, description: String(err) })
    }
  })
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve))
  const address = server.address()
  return {
    url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : port}`,
    token,
    state,
    stop: () => new Promise((resolve) => (wake(), server.closeAllConnections(), server.close(() => resolve()))),
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const mock = await startMockTelegram({ port: Number(process.env.PORT ?? 3998), token: process.env.BOT_TOKEN || MOCK_BOT_TOKEN })
  console.log(`Mock Telegram Bot API on ${mock.url} (token ${mock.token})`)
}
