/**
 * Content safety with the official `openai` SDK against the running gateway: a prompt holding a
 * listed word raises BadRequestError with code `sensitive_words_detected`, the mock supplier never
 * sees it (its per-key counter stays put) and the balance does not move. The word and the model are
 * unique to this file, and the settings are put back afterwards, so other files are not disturbed.
 */
import OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { relayFixture } from './support/api'

const WORD = 'zq-safety-e2e-word'
const CHANNEL_KEY = 'sk-mock-safety-e2e'

let fixture: Awaited<ReturnType<typeof relayFixture>>
let client: OpenAI

const supplierCalls = async () => {
  const stats = (await (await fetch(`${inject('mockUrl')}/__stats`)).json()) as Record<string, number>
  return Object.entries(stats)
    .filter(([k]) => k.startsWith(`${CHANNEL_KEY} `))
    .reduce((sum, [, n]) => sum + n, 0)
}
const quota = async () => (await fixture.user.ok<{ quota: number }>('GET', '/api/user/self')).quota

beforeAll(async () => {
  fixture = await relayFixture({ username: `safety${Date.now().toString(36)}`, model: 'safety-e2e-model', channelKey: CHANNEL_KEY })
  for (const [key, value] of Object.entries({ CheckSensitiveEnabled: 'true', CheckSensitiveOnPromptEnabled: 'true', SensitiveWords: WORD })) {
    await fixture.root.ok('PUT', '/api/option/', { key, value })
  }
  client = new OpenAI({ apiKey: fixture.token.key, baseURL: `${inject('gatewayUrl')}/v1`, maxRetries: 0 })
})

afterAll(async () => {
  for (const [key, value] of Object.entries({ CheckSensitiveEnabled: 'false', SensitiveWords: '' })) await fixture?.root.call('PUT', '/api/option/', { key, value })
})

describe('content safety with the official openai SDK', () => {
  it('refuses a prompt with a listed word before the supplier, charging nothing', async () => {
    const callsBefore = await supplierCalls()
    const quotaBefore = await quota()
    const err = await client.chat.completions
      .create({
        model: fixture.model,
        messages: [
          { role: 'system', content: `Never mention ${WORD.toUpperCase()}.` },
          { role: 'user', content: 'hi' },
        ],
      })
      .catch((e: unknown) => e)
    expect(err).toBeInstanceOf(OpenAI.BadRequestError)
    expect((err as InstanceType<typeof OpenAI.BadRequestError>).code).toBe('sensitive_words_detected')
    expect(await supplierCalls()).toBe(callsBefore)
    expect(await quota()).toBe(quotaBefore)

    // A clean prompt still goes through.
    const ok = await client.chat.completions.create({ model: fixture.model, messages: [{ role: 'user', content: 'Hello there gateway' }] })
    expect(ok.choices[0]!.message.content).toContain('mock upstream')
    expect(await supplierCalls()).toBe(callsBefore + 1)
  })
})
