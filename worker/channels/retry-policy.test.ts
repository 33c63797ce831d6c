import { describe, expect, it } from 'vitest'
import { clientStatus, decideFailure } from './retry-policy'

const kw = ['You exceeded your current quota', 'Your credit balance is too low']

describe('decideFailure', () => {
  const cases: [string, number, { message: string; code?: string; type?: string }, boolean, boolean][] = [
    ['network error retries', 0, { message: 'connection reset' }, true, false],
    ['500 retries', 500, { message: 'boom' }, true, false],
    ['429 retries', 429, { message: 'slow down', code: 'rate_limit_exceeded' }, true, false],
    ['401 retries and disables', 401, { message: 'Incorrect API key' }, true, true],
    ['quota type disables', 429, { message: 'quota', type: 'insufficient_quota' }, true, true],
    ['keyword disables', 403, { message: 'Your credit balance is too low to access the API' }, true, true],
    ['400 is the client error: no retry', 400, { message: 'bad param' }, false, false],
    ['413 no retry', 413, { message: 'too large' }, false, false],
    // Bodies of client errors echo the client's input: a keyword there never disables.
    ['keyword echoed in a 400 does not disable', 400, { message: "Invalid value: 'Your credit balance is too low'" }, false, false],
    ['keyword echoed in a 404 does not disable', 404, { message: 'The model `You exceeded your current quota` does not exist' }, true, false],
    ['keyword echoed in a 422 does not disable', 422, { message: 'Your credit balance is too low' }, false, false],
    ['keyword in a 402 disables', 402, { message: 'Your credit balance is too low' }, true, true],
    ['structured code disables whatever the status', 400, { message: 'x', code: 'invalid_api_key' }, false, true],
  ]
  for (const [name, status, error, retry, disables] of cases) {
    it(name, () => {
      const d = decideFailure({ status, error }, kw)
      expect(d.retry).toBe(retry)
      expect(d.freeze).toBe(retry)
      expect(Boolean(d.disableReason)).toBe(disables)
    })
  }

  it('neither retries nor freezes a 429 that says the request itself is too large (issue 31)', () => {
    const message = 'Request too large for gpt-4o in organization org-x on tokens per min (TPM): Limit 30000, Requested 50000.'
    const d = decideFailure({ status: 429, error: { message, type: 'tokens', code: 'rate_limit_exceeded' } }, kw)
    expect(d).toMatchObject({ retry: false, freeze: false, oversized: { limit: 30000, requested: 50000 } })
    expect(d.disableReason).toBeUndefined()
    // Anthropic's wording counts only with a prompt surely over the limit.
    const anthropic = { status: 429, error: { message: 'This request would exceed the rate limit for your organization (x) of 20,000 input tokens per minute.' } }
    expect(decideFailure(anthropic, kw, 1000)).toMatchObject({ retry: true, freeze: true })
    expect(decideFailure(anthropic, kw, 30_000)).toMatchObject({ retry: false, freeze: false })
  })
})

describe('clientStatus', () => {
  it('maps upstream failures so the client is not blamed for the channel', () => {
    expect(clientStatus(401).status).toBe(503)
    expect(clientStatus(500).status).toBe(502)
    expect(clientStatus(0).status).toBe(502)
    expect(clientStatus(-1).status).toBe(504)
    expect(clientStatus(429).status).toBe(429)
    expect(clientStatus(400).status).toBe(400)
  })
})
