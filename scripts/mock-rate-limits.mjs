/**
 * The suppliers' "request too large" rate limits, for the mock supplier (mock-upstream.mjs) and the
 * worker tests' fetch-level mock (worker/test/upstream-mock.ts). A key `mock-tpm-<N>` stands for a
 * key whose tier allows N tokens per minute: a request whose prompt alone is over N gets the
 * supplier's own answer for that — OpenAI's 429 "Request too large for <model> … on tokens per min
 * (TPM)" (type `tokens`, code `rate_limit_exceeded`), or on Anthropic's Messages path its 429
 * `rate_limit_error` for input tokens per minute with the anthropic-ratelimit-* headers. Smaller
 * requests are answered normally.
 */

/** The key's tokens-per-minute limit, when it is a `mock-tpm-<N>` key. */
export function tpmLimit(key) {
  const n = Number(/^mock-tpm-(\d+)$/.exec(key ?? '')?.[1])
  return Number.isSafeInteger(n) && n > 0 ? n : undefined
}

/** Prompt tokens as a supplier would count them, roughly: four characters of text a token. */
function promptTokens(body) {
  const parts = [body.system, body.messages, body.contents, body.prompt, body.input].filter((p) => p !== undefined)
  const text = parts.map((p) => (typeof p === 'string' ? p : JSON.stringify(p))).join('')
  return Math.ceil(text.length / 4)
}

/** The 429 the supplier sends when the request alone is over `limit`, else undefined. */
export function requestTooLarge(path, body, limit) {
  if (limit === undefined) return undefined
  const requested = promptTokens(body)
  if (requested <= limit) return undefined
  if (path.endsWith('/messages')) {
    const message =
      `This request would exceed the rate limit for your organization (6f0c2f43-0d5e-4b8e-9c1a-2b7d3e4f5a60) of ${limit.toLocaleString('en-US')} input tokens per minute. ` +
      'For details, refer to: https://docs.claude.com/en/api/rate-limits. You can see the response headers for current usage. ' +
      'Please reduce the prompt length or the maximum tokens requested, or try again later.'
    return {
      status: 429,
      headers: {
        'retry-after': '60',
        'anthropic-ratelimit-input-tokens-limit': String(limit),
        'anthropic-ratelimit-input-tokens-remaining': String(limit),
        'request-id': 'req_mock_too_large',
      },
      body: { type: 'error', error: { type: 'rate_limit_error', message }, request_id: 'req_mock_too_large' },
    }
  }
  const message =
    `Request too large for ${body.model ?? 'the model'} in organization org-mock on tokens per min (TPM): Limit ${limit}, Requested ${requested}. ` +
    'The input or output tokens must be reduced in order to run successfully. Visit https://platform.openai.com/account/rate-limits to learn more.'
  return { status: 429, headers: {}, body: { error: { message, type: 'tokens', param: null, code: 'rate_limit_exceeded' } } }
}
