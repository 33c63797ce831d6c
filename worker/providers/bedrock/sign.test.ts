/** SigV4 through aws4fetch: AWS's documented test-suite vectors, and a Bedrock request checked by an independent signer. */
import { describe, expect, it } from 'vitest'
import { authorizeBedrock, signAws } from './sign'
import { bedrockKeyProblem, parseBedrockKey } from './key'

// AWS Signature Version 4 test suite (aws-sig-v4-test-suite): shared credentials and clock.
const SUITE = {
  kind: 'sigv4' as const,
  region: 'us-east-1',
  accessKeyId: 'AKIDEXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
}
const SUITE_TIME = '20150830T123600Z'

describe('SigV4 (AWS test-suite vectors)', () => {
  it.each([
    ['get-vanilla', 'GET', 'https://example.amazonaws.com/', '5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31'],
    ['get-vanilla-query-order-key-case', 'GET', 'https://example.amazonaws.com/?Param2=value2&Param1=value1', 'b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500'],
    ['post-vanilla', 'POST', 'https://example.amazonaws.com/', '5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b'],
  ])('%s', async (_name, method, url, signature) => {
    const req = await signAws({ method, url, headers: {} }, SUITE, { service: 'service', datetime: SUITE_TIME })
    expect(req.headers.get('x-amz-date')).toBe(SUITE_TIME)
    expect(req.headers.get('authorization')).toBe(
      `AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=host;x-amz-date, Signature=${signature}`
    )
  })
})

// ---- an independent SigV4 signer (WebCrypto, written from the AWS spec) for the Bedrock request ----
const enc = new TextEncoder()
const hex = (b: ArrayBuffer) => [...new Uint8Array(b)].map((x) => x.toString(16).padStart(2, '0')).join('')
const sha256 = async (s: string) => hex(await crypto.subtle.digest('SHA-256', enc.encode(s)))
async function hmac(key: ArrayBuffer | Uint8Array, data: string) {
  const k = await crypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
  return crypto.subtle.sign('HMAC', k, enc.encode(data))
}
async function referenceSignature(opts: { path: string; headers: [string, string][]; body: string; date: string; region: string; secret: string }) {
  // Non-S3 services sign the path URI-encoded twice (":" in a model id → %3A in the URL → %253A here).
  const canonicalPath = opts.path
    .split('/')
    .map((s) => encodeURIComponent(s))
    .join('/')
  const sorted = [...opts.headers].sort(([a], [b]) => a.localeCompare(b))
  const canonical = ['POST', canonicalPath, '', ...sorted.map(([k, v]) => `${k}:${v}`), '', sorted.map(([k]) => k).join(';'), await sha256(opts.body)].join('\n')
  const scope = `${opts.date.slice(0, 8)}/${opts.region}/bedrock/aws4_request`
  const toSign = ['AWS4-HMAC-SHA256', opts.date, scope, await sha256(canonical)].join('\n')
  let key: ArrayBuffer = await hmac(enc.encode(`AWS4${opts.secret}`), opts.date.slice(0, 8))
  for (const part of [opts.region, 'bedrock', 'aws4_request']) key = await hmac(key, part)
  return hex(await hmac(key, toSign))
}

describe('Bedrock signing', () => {
  it('signs the double-encoded model path, the date and the session token (independent signer agrees)', async () => {
    const creds = parseBedrockKey('us-west-2|AKIAEXAMPLE|secretEXAMPLE|sessionTOKEN')
    const body = '{"messages":[{"role":"user","content":[{"text":"hi"}]}]}'
    const url = 'https://bedrock-runtime.us-west-2.amazonaws.com/model/anthropic.claude-3-5-haiku-20241022-v1%3A0/converse'
    const req = await authorizeBedrock({ method: 'POST', url, headers: { 'content-type': 'application/json', accept: 'application/json' }, body }, creds, {
      datetime: '20250102T030405Z',
    })
    expect(req.headers.get('x-amz-security-token')).toBe('sessionTOKEN')
    const expected = await referenceSignature({
      path: '/model/anthropic.claude-3-5-haiku-20241022-v1%3A0/converse',
      headers: [
        ['accept', 'application/json'],
        ['host', 'bedrock-runtime.us-west-2.amazonaws.com'],
        ['x-amz-date', '20250102T030405Z'],
        ['x-amz-security-token', 'sessionTOKEN'],
      ],
      body,
      date: '20250102T030405Z',
      region: 'us-west-2',
      secret: 'secretEXAMPLE',
    })
    expect(req.headers.get('authorization')).toBe(
      `AWS4-HMAC-SHA256 Credential=AKIAEXAMPLE/20250102/us-west-2/bedrock/aws4_request, SignedHeaders=accept;host;x-amz-date;x-amz-security-token, Signature=${expected}`
    )
    expect(await req.text()).toBe(body)
  })

  it('sends a Bedrock API key as a bearer token without SigV4', async () => {
    const req = await authorizeBedrock(
      { method: 'POST', url: 'https://bedrock-runtime.eu-west-1.amazonaws.com/x', headers: {}, body: '{}' },
      parseBedrockKey('eu-west-1|ABSKQmVkcm9ja0FQSUtleQ==')
    )
    expect(req.headers.get('authorization')).toBe('Bearer ABSKQmVkcm9ja0FQSUtleQ==')
    expect(req.headers.has('x-amz-date')).toBe(false)
  })
})

describe('Bedrock key format', () => {
  it.each([
    ['us-east-1|AKIA|secret', undefined],
    ['us-east-1|AKIA|secret|token', undefined],
    ['us-gov-west-1|ABSK…', undefined],
    ['AKIA|secret', '"AKIA" is not an AWS region (e.g. us-east-1)'],
    ['us-east-1', 'Bedrock key is Region|AccessKeyID|SecretAccessKey[|SessionToken] or Region|APIKey'],
    ['us-east-1||secret', 'Bedrock key parts must not be empty'],
    ['us-east-1|a|b|c|d', 'Bedrock key is Region|AccessKeyID|SecretAccessKey[|SessionToken] or Region|APIKey'],
  ])('%j → %j', (key, problem) => {
    expect(bedrockKeyProblem(key)).toBe(problem)
  })

  it('parses both forms', () => {
    expect(parseBedrockKey(' us-east-1 | AKIA | sec ')).toEqual({ kind: 'sigv4', region: 'us-east-1', accessKeyId: 'AKIA', secretAccessKey: 'sec' })
    expect(parseBedrockKey('ap-northeast-1|ABSKkey')).toEqual({ kind: 'apiKey', region: 'ap-northeast-1', apiKey: 'ABSKkey' })
  })
})
