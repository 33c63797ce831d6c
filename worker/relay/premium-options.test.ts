/**
 * Premium supplier options never reach a supplier at the standard price: service_tier is removed
 * from chat, Responses and Messages bodies, Responses' background mode is refused, and only the
 * standard-price anthropic-betas are forwarded.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createChannel, createToken, createUser, send, setPrice } from '../test/factories'
import { mockVendors } from '../test/vendor-mock'
import { standardPriceBetas, withoutPremiumOptions } from './premium-options'

describe('premium options', () => {
  it('removes service_tier and keeps everything else', () => {
    expect(withoutPremiumOptions({ model: 'm', service_tier: 'priority', temperature: 0 })).toEqual({ model: 'm', temperature: 0 })
    const plain = { model: 'm' }
    expect(withoutPremiumOptions(plain)).toBe(plain)
  })

  it('forwards only the anthropic-betas billed at the standard price', () => {
    expect(standardPriceBetas('context-1m-2025-08-07, prompt-caching-2024-07-31,extended-cache-ttl-2025-04-11')).toBe('prompt-caching-2024-07-31')
    expect(standardPriceBetas('context-1m-2025-08-07')).toBeUndefined()
    expect(standardPriceBetas(undefined)).toBeUndefined()
  })
})

describe('premium options on the relay', () => {
  let vendors: ReturnType<typeof mockVendors>
  beforeEach(() => {
    vendors = mockVendors()
  })
  afterEach(() => vendors.restore())

  async function customer() {
    const user = await createUser({ quota: 1_000_000 })
    return createToken(user.id, { unlimited: true })
  }

  it('sends no service_tier upstream from a chat body', async () => {
    await createChannel({ type: 1, key: 'sk-openai', models: 'gpt-4o' })
    await setPrice('gpt-4o', 1, 1)
    const token = await customer()
    const res = await send('/v1/chat/completions', {
      key: token.key,
      json: { model: 'gpt-4o', service_tier: 'priority', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] },
    })
    expect(res.status).toBe(200)
    expect(vendors.calls.at(-1)!.body).not.toHaveProperty('service_tier')
  })

  it('refuses Responses background mode and strips service_tier from the native Responses body', async () => {
    await createChannel({ type: 1, key: 'sk-openai', models: 'gpt-4o' })
    await setPrice('gpt-4o', 1, 1)
    const token = await customer()
    const refused = await send('/v1/responses', { key: token.key, json: { model: 'gpt-4o', input: 'hi', background: true } })
    expect(refused.status).toBe(400)
    expect(refused.json.error.message).toMatch(/background mode is not supported/)
    expect(vendors.calls).toHaveLength(0)
    const res = await send('/v1/responses', { key: token.key, json: { model: 'gpt-4o', input: 'hi', service_tier: 'priority', max_output_tokens: 10 } })
    expect(res.status).toBe(200)
    expect(vendors.calls.at(-1)!.url).toMatch(/\/v1\/responses$/)
    expect(vendors.calls.at(-1)!.body).not.toHaveProperty('service_tier')
  })

  it('forwards standard-price betas only and strips service_tier on the native Messages path', async () => {
    await createChannel({ type: 14, key: 'sk-ant-key', models: 'claude-sonnet-4-5' })
    await setPrice('claude-sonnet-4-5', 1, 1)
    const token = await customer()
    const res = await send('/v1/messages', {
      key: token.key,
      headers: { 'anthropic-beta': 'context-1m-2025-08-07,prompt-caching-2024-07-31' },
      json: { model: 'claude-sonnet-4-5', max_tokens: 10, service_tier: 'auto', messages: [{ role: 'user', content: 'hi' }] },
    })
    expect(res.status).toBe(200)
    const call = vendors.calls.at(-1)!
    expect(call.headers.get('anthropic-beta')).toBe('prompt-caching-2024-07-31')
    expect(call.body).not.toHaveProperty('service_tier')
  })
})
