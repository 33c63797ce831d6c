/**
 * Bounded exposure: against suppliers that obey the output limit they are sent — each reading only
 * its own vendor's field (test/vendor-mock.ts) and writing all of it — no request in any inbound
 * format (OpenAI chat, Responses, Anthropic Messages, Gemini) on any channel type (OpenAI, a legacy
 * OpenAI-compatible server, Azure, Anthropic, Gemini, Vertex Gemini and Claude, Bedrock), with
 * conflicting, hostile or missing limit fields, streamed or not, drives a balance below zero: ten
 * parallel requests from a user whose balance covers two honest answers leave the balance ≥ 0 and
 * Σ log quota = the balance's decrease.
 */
import { exportPKCS8, generateKeyPair } from 'jose'
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createChannel, createToken, createUser, ledger, send, setPrice } from '../test/factories'
import { mockVendors, PROMPT_TOKENS } from '../test/vendor-mock'

/** About 140 characters: the gateway's estimate (≥ 47 tokens) is above the PROMPT_TOKENS every answer reports. */
const PROMPT = 'Write the longest story you can about the sea, the wind and a lighthouse keeper who counts ships at night until morning comes again.'
/** Two honest answers (PROMPT_TOKENS in, 100 out, at 1 unit a token) and a little more. */
const BALANCE = 300

interface Channel {
  name: string
  type: number
  model: string
  key: string | (() => string)
  other?: string
}

let serviceAccount = ''
const CHANNELS: Channel[] = [
  { name: 'OpenAI', type: 1, model: 'gpt-4o', key: 'sk-openai' },
  { name: 'OpenAI (reasoning model)', type: 1, model: 'gpt-5-mini', key: 'sk-openai' },
  { name: 'custom OpenAI-compatible (reads max_tokens only)', type: 8, model: 'deepseek-chat', key: 'legacy' },
  { name: 'Azure OpenAI', type: 3, model: 'gpt-4.1', key: 'azure-key' },
  { name: 'Anthropic', type: 14, model: 'claude-sonnet-4-5', key: 'sk-ant-key' },
  { name: 'Gemini', type: 25, model: 'gemini-2.5-flash', key: 'AIza-key' },
  { name: 'Vertex Gemini', type: 42, model: 'gemini-2.5-pro', key: () => serviceAccount, other: 'us-central1|demo-project' },
  { name: 'Vertex Claude', type: 42, model: 'claude-opus-4-1', key: () => serviceAccount, other: 'us-east5|demo-project' },
  { name: 'Bedrock', type: 32, model: 'anthropic.claude-3-5-sonnet-20240620-v1:0', key: 'us-east-1|AKIAEXAMPLE|secretEXAMPLE' },
]

interface Format {
  name: string
  path(model: string, stream: boolean): string
  body(model: string, stream: boolean, limits: Record<string, unknown>): Record<string, unknown>
  /** Limit fields: conflicting, hostile, missing and honest. */
  cases: Record<string, unknown>[]
}

const FORMATS: Format[] = [
  {
    name: 'OpenAI chat',
    path: () => '/v1/chat/completions',
    body: (model, stream, limits) => ({ model, stream, messages: [{ role: 'user', content: PROMPT }], ...limits }),
    cases: [{}, { max_completion_tokens: 1, max_tokens: 40_000 }, { max_tokens: 1, max_completion_tokens: 40_000 }, { max_tokens: 100 }],
  },
  {
    name: 'Responses',
    path: () => '/v1/responses',
    body: (model, stream, limits) => ({ model, stream, input: PROMPT, ...limits }),
    cases: [{}, { max_output_tokens: 40_000 }, { max_output_tokens: 100 }],
  },
  {
    name: 'Anthropic Messages',
    path: () => '/v1/messages',
    body: (model, stream, limits) => ({ model, stream, messages: [{ role: 'user', content: PROMPT }], ...limits }),
    cases: [{ max_tokens: 40_000 }, { max_tokens: 100, thinking: { type: 'enabled', budget_tokens: 40_000 } }, { max_tokens: 100 }],
  },
  {
    name: 'Gemini',
    path: (model, stream) => `/v1beta/models/${model}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`,
    body: (_model, _stream, limits) => ({ contents: [{ role: 'user', parts: [{ text: PROMPT }] }], generationConfig: limits }),
    cases: [{}, { maxOutputTokens: 1, thinkingConfig: { thinkingBudget: 40_000 } }, { maxOutputTokens: 40_000 }, { maxOutputTokens: 100 }],
  },
]

/** Whether a case's largest limit field fits the balance (40,000 never does: those are refused whole). */
const affordable = (limits: Record<string, unknown>) => !JSON.stringify(limits).includes('40000')

let vendors: ReturnType<typeof mockVendors>
beforeAll(async () => {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true })
  serviceAccount = JSON.stringify({
    type: 'service_account',
    client_email: 'gateway@demo-project.iam.gserviceaccount.com',
    private_key: await exportPKCS8(privateKey),
    project_id: 'demo-project',
    token_uri: 'https://upstream.test/token',
  })
})
beforeEach(() => {
  vendors = mockVendors()
})
afterEach(() => vendors.restore())

describe('bounded exposure: every inbound format × channel type × limit fields', () => {
  for (const format of FORMATS) {
    for (const ch of CHANNELS) {
      it(`${format.name} on ${ch.name}: ten parallel requests never take the balance below zero`, { timeout: 120_000 }, async () => {
        await createChannel({ type: ch.type, key: typeof ch.key === 'string' ? ch.key : ch.key(), models: ch.model, other: ch.other })
        await setPrice(ch.model, 1, 1)
        for (const limits of format.cases) {
          for (const stream of [false, true]) {
            const user = await createUser({ quota: BALANCE })
            const token = await createToken(user.id, { unlimited: true })
            const results = await Promise.all(
              Array.from({ length: 10 }, () => send(format.path(ch.model, stream), { key: token.key, json: format.body(ch.model, stream, limits) }))
            )
            const label = `${JSON.stringify(limits)} stream=${stream}`
            // A limit the balance covers (or none: the answer is capped at what it pays) is served at least once.
            const served = results.filter((r) => r.status === 200).length
            if (affordable(limits)) expect(served, label).toBeGreaterThanOrEqual(1)
            for (const r of results) expect([200, 402, 403, 429], `${label}: ${r.text.slice(0, 200)}`).toContain(r.status)
            const l = await ledger(user.id)
            expect(l.quota, label).toBeGreaterThanOrEqual(0)
            expect(BALANCE - l.quota, label).toBe(l.loggedQuota)
            if (served > 0) expect(l.loggedQuota, label).toBeGreaterThanOrEqual(PROMPT_TOKENS)
            else expect(l.loggedQuota, label).toBe(0)
          }
        }
      })
    }
  }
})
