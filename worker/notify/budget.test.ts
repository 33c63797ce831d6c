/**
 * Budget notices: a key whose budget reaches 80 % and then 100 % in its period raises
 * token.budget_threshold and token.budget_exhausted once each (the wallet answers the crossing, the
 * worker sends it in the background); the same period never raises them again, a new one does.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { env } from 'cloudflare:workers'
import { budgetCrossing } from '../wallet/wallet-budget'
import type { BudgetCrossing } from '../wallet/wallet-types'
import { periodBounds } from '../lib/budget-period'
import { setTestClockOffset } from '../lib/clock'
import { setupRoot } from '../test/client'
import { createChannel, createToken, createUser, send, setOptions, setPrice } from '../test/factories'
import { receiver } from '../test/notify-receiver'
import { mockUpstream } from '../test/upstream-mock'
import { alertBudgetCrossings } from './budget'

let hooks: ReturnType<typeof receiver>
let upstream: ReturnType<typeof mockUpstream>
beforeEach(() => {
  upstream = mockUpstream()
  hooks = receiver()
})
afterEach(() => {
  upstream.restore()
  vi.restoreAllMocks()
  setTestClockOffset({ TEST_CLOCK: '1' }, 0)
})

const BUDGET_EVENTS = ['token.budget_threshold', 'token.budget_exhausted']
const chat = { model: 'budget-notice-model', messages: [{ role: 'user', content: 'Say hello' }], max_tokens: 5 }

describe('budget crossing', () => {
  it('names the higher threshold a change passes, in exact integers', () => {
    expect(budgetCrossing(300, 400, 500)).toBe('threshold')
    expect(budgetCrossing(399, 400, 500)).toBe('threshold')
    expect(budgetCrossing(400, 450, 500)).toBeNull()
    expect(budgetCrossing(450, 500, 500)).toBe('exhausted')
    expect(budgetCrossing(100, 600, 500)).toBe('exhausted')
    expect(budgetCrossing(500, 600, 500)).toBeNull()
    expect(budgetCrossing(0, 8, 9)).toBe('threshold') // ceil(7.2) = 8
    expect(budgetCrossing(0, 7, 9)).toBeNull()
    expect(budgetCrossing(0, 100, 0)).toBeNull()
    expect(budgetCrossing(500, 300, 500)).toBeNull()
  })
})

describe('budget notices', () => {
  it('raises the 80 % and the 100 % notice once each as relay calls spend a daily budget', async () => {
    const root = await setupRoot()
    expect((await root.post('/api/notify/channel/', { name: 'ops', type: 'webhook', url: 'https://hooks.test/ops', events: BUDGET_EVENTS })).status).toBe(200)
    await setPrice('budget-notice-model', 0.1, 0, 'times') // 100 units a call
    await createChannel({ key: 'budget-notice', models: 'budget-notice-model' })
    const { start, end } = periodBounds('day', 'UTC', Date.now())
    setTestClockOffset({ TEST_CLOCK: '1' }, start + 3_600_000 - Date.now())
    const user = await createUser({ quota: 10_000_000 })
    const token = await createToken(user.id, { unlimited: true })
    await env.DB.prepare("UPDATE tokens SET budget_period = 'day', budget_quota = 500, name = 'ci key' WHERE id = ?").bind(token.id).run()

    const events = () => hooks.got.map((g) => g.body.event)
    for (let i = 0; i < 3; i++) expect((await send('/v1/chat/completions', { key: token.key, json: chat })).status).toBe(200)
    expect(events()).toEqual([])
    expect((await send('/v1/chat/completions', { key: token.key, json: chat })).status).toBe(200) // 400 of 500
    await vi.waitFor(() => expect(events()).toEqual(['token.budget_threshold']))
    expect((await send('/v1/chat/completions', { key: token.key, json: chat })).status).toBe(200) // 500 of 500
    await vi.waitFor(() => expect(events()).toEqual(['token.budget_threshold', 'token.budget_exhausted']))
    expect((await send('/v1/chat/completions', { key: token.key, json: chat })).status).toBe(429)
    expect(hooks.got[0]!.body).toMatchObject({
      severity: 'info',
      data: { subject: `token:${token.id}:${start}`, user_id: user.id, token_id: token.id, period: 'day', period_start: start, period_end: end, used: 400, quota: 500 },
    })
    expect(hooks.got[0]!.body.text).toContain('"ci key"')
    expect(hooks.got[1]!.body).toMatchObject({ severity: 'warning', data: { used: 500, quota: 500 } })
  })

  it('deduplicates per (event, token, period start) past the cool-down; the next period notifies again', async () => {
    const root = await setupRoot()
    await root.post('/api/notify/channel/', { name: 'ops', type: 'webhook', url: 'https://hooks.test/ops', events: BUDGET_EVENTS })
    await setOptions({ NotifyCooldownMinutes: '1' })
    const now = Date.now()
    const crossing: BudgetCrossing = { tokenId: 77, kind: 'threshold', used: 80, quota: 100, period: 'day', start: now - 3_600_000, end: now + 3_600_000 }
    await alertBudgetCrossings(env, 5, [crossing])
    await alertBudgetCrossings(env, 5, [crossing, { ...crossing, kind: 'exhausted', used: 100 }])
    // Long past the cool-down, still in the same period: the mark holds until the period ends.
    await env.DB.prepare('UPDATE notify_marks SET sent_at = sent_at - 600').run()
    await alertBudgetCrossings(env, 5, [crossing])
    await alertBudgetCrossings(env, 5, [{ ...crossing, start: crossing.end, end: crossing.end + 86_400_000 }])
    expect(hooks.got.map((g) => `${g.body.event} ${g.body.data.subject}`)).toEqual([
      `token.budget_threshold token:77:${crossing.start}`,
      `token.budget_exhausted token:77:${crossing.start}`,
      `token.budget_threshold token:77:${crossing.end}`,
    ])
  })
})
