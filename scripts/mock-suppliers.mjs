/**
 * Signed-supplier personalities of the mock upstream, each under its own path prefix. Every one
 * first VERIFIES the supplier's auth scheme with its own implementation (node:crypto, written from
 * the vendors' specs) and answers in the supplier's native format, stream and non-stream:
 *   /bedrock/model/<id>/converse[-stream]   SigV4 (key us-east-1|AKIDMOCK|mock-bedrock-secret[|token])
 *                                           or a Bedrock API key (us-east-1|ABSK-mock); event-stream frames
 *   /hunyuan/                               TC3-HMAC-SHA256 (key AKIDmock|SKmock); failures inside a 200
 *   /zhipu/v4/...                           HS256 JWT from mockid.mocksecret (sign_type SIGN, ms exp)
 *   /baidu/v2/...                           Qianfan bearer key bce-v3/…
 *   /baidu/oauth/2.0/token, /baidu/rpc/...  legacy ak-mock|sk-mock → access token → ERNIE answers
 *   /cohere/v2/chat|embed|rerank            bearer co-mock
 *   /vertex/service-account.json            a service account whose token_uri is this mock
 *   /vertex/token                           checks the RS256 assertion, issues an access token
 *   /vertex/v1/projects/…/publishers/…      Gemini / Claude (rawPredict) with that token
 */
import crypto from 'node:crypto'

const BEDROCK_SECRETS = { AKIDMOCK: 'mock-bedrock-secret' }
const BEDROCK_API_KEYS = new Set(['ABSK-mock'])
const HUNYUAN_SECRETS = { AKIDmock: 'SKmock' }
const ZHIPU_SECRETS = { mockid: 'mocksecret' }
const COHERE_KEYS = new Set(['co-mock'])
const BAIDU_APPS = { 'ak-mock': 'sk-mock' }
const baiduTokens = new Set()

const sha256 = (data) => crypto.createHash('sha256').update(data).digest('hex')
const hmac = (key, data) => crypto.createHmac('sha256', key).update(data).digest()
const b64url = (buf) => Buffer.from(buf).toString('base64url')
const safeEqual = (a, b) => a.length === b.length && crypto.timingSafeEqual(Buffer.from(a), Buffer.from(b))

// ---- auth checks: each returns an error message, or '' when the request is authentic ----

function checkSigV4(req, raw) {
  const auth = req.headers.authorization ?? ''
  const bearer = auth.match(/^Bearer (.+)$/)?.[1]
  if (bearer) return BEDROCK_API_KEYS.has(bearer) ? '' : 'The security token included in the request is invalid.'
  const m = auth.match(/^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/)
  if (!m) return 'Authorization header is not SigV4'
  const [, akid, date, region, service, signedHeaders, signature] = m
  const secret = BEDROCK_SECRETS[akid]
  if (!secret) return 'The security token included in the request is invalid.'
  if (service !== 'bedrock') return `Credential should be scoped to correct service: 'bedrock'.`
  const amzDate = req.headers['x-amz-date'] ?? ''
  if (!amzDate.startsWith(date)) return 'X-Amz-Date does not match the credential date'
  const when = Date.parse(amzDate.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z'))
  if (!(Math.abs(Date.now() - when) < 15 * 60_000)) return 'Signature expired'
  const url = new URL(req.url, 'http://x')
  // Non-S3 services sign each path segment URI-encoded once more than it travels.
  const path = url.pathname
    .split('/')
    .map((s) => encodeURIComponent(s))
    .join('/')
  const query = [...url.searchParams]
    .map(([k, v]) => [encodeURIComponent(k), encodeURIComponent(v)])
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`)
    .join('&')
  const names = signedHeaders.split(';')
  if (!names.includes('host') || !names.includes('x-amz-date')) return 'host and x-amz-date must be signed'
  const headers = names
    .map(
      (n) =>
        `${n}:${String(req.headers[n] ?? '')
          .trim()
          .replace(/\s+/g, ' ')}\n`
    )
    .join('')
  const canonical = [req.method, path, query, headers, signedHeaders, sha256(raw)].join('\n')
  const scope = `${date}/${region}/${service}/aws4_request`
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonical)].join('\n')
  let key = hmac(`AWS4${secret}`, date)
  for (const part of [region, service, 'aws4_request']) key = hmac(key, part)
  return safeEqual(hmac(key, toSign).toString('hex'), signature) ? '' : 'The request signature we calculated does not match the signature you provided.'
}

function checkTc3(req, raw) {
  const m = (req.headers.authorization ?? '').match(
    /^TC3-HMAC-SHA256 Credential=([^/]+)\/(\d{4}-\d{2}-\d{2})\/hunyuan\/tc3_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/
  )
  if (!m) return ['AuthFailure.InvalidAuthorization', 'Authorization header is not TC3-HMAC-SHA256']
  const [, id, date, signedHeaders, signature] = m
  const secret = HUNYUAN_SECRETS[id]
  if (!secret) return ['AuthFailure.SecretIdNotFound', 'The SecretId is not found']
  const ts = Number(req.headers['x-tc-timestamp'])
  if (!(Math.abs(Date.now() / 1000 - ts) < 300)) return ['AuthFailure.SignatureExpire', 'Signature expired']
  if (new Date(ts * 1000).toISOString().slice(0, 10) !== date) return ['AuthFailure.InvalidAuthorization', 'Credential date does not match X-TC-Timestamp']
  const headers = signedHeaders
    .split(';')
    .map(
      (n) =>
        `${n}:${String(req.headers[n] ?? '')
          .trim()
          .toLowerCase()}\n`
    )
    .join('')
  const canonical = ['POST', '/', '', headers, signedHeaders, sha256(raw)].join('\n')
  const toSign = ['TC3-HMAC-SHA256', String(ts), `${date}/hunyuan/tc3_request`, sha256(canonical)].join('\n')
  const key = hmac(hmac(hmac(`TC3${secret}`, date), 'hunyuan'), 'tc3_request')
  return safeEqual(hmac(key, toSign).toString('hex'), signature)
    ? null
    : ['AuthFailure.SignatureFailure', 'The provided credentials could not be validated. Please check your signature is correct.']
}

function checkZhipu(req) {
  const auth = req.headers.authorization ?? ''
  const bearer = auth.match(/^Bearer (\S+)$/)?.[1]
  if (bearer) return Object.entries(ZHIPU_SECRETS).some(([id, s]) => bearer === `${id}.${s}`) ? '' : 'invalid api key'
  const [h, p, s] = auth.split('.')
  if (!s) return 'token is not a JWT'
  const header = JSON.parse(Buffer.from(h, 'base64url').toString())
  const claims = JSON.parse(Buffer.from(p, 'base64url').toString())
  if (header.alg !== 'HS256' || header.sign_type !== 'SIGN') return 'JWT header must be HS256 with sign_type SIGN'
  const secret = ZHIPU_SECRETS[claims.api_key]
  if (!secret) return 'unknown api_key'
  if (!safeEqual(b64url(hmac(secret, `${h}.${p}`)), s)) return 'JWT signature is invalid'
  if (!(claims.exp > Date.now() && claims.timestamp <= Date.now() + 60_000)) return 'JWT expired (exp and timestamp are milliseconds)'
  return ''
}

// ---- Vertex AI: a service account whose private key only this mock knows ----
let keyPair
/** Made on first use so the mock starts fast for the benchmark. */
const vertexKeys = () => (keyPair ??= crypto.generateKeyPairSync('rsa', { modulusLength: 2048 }))
const vertexTokens = new Set()

function vertexServiceAccount(req) {
  return {
    type: 'service_account',
    project_id: 'mock-project',
    private_key_id: 'mock-key-1',
    private_key: vertexKeys().privateKey.export({ type: 'pkcs8', format: 'pem' }),
    client_email: 'gateway@mock-project.iam.gserviceaccount.com',
    token_uri: `http://${req.headers.host}/vertex/token`,
  }
}

function vertexToken(req, raw) {
  const form = new URLSearchParams(raw.toString())
  if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer') return [400, { error: 'unsupported_grant_type' }]
  const [h, p, s] = (form.get('assertion') ?? '').split('.')
  if (!s) return [400, { error: 'invalid_grant', error_description: 'Invalid JWT' }]
  const header = JSON.parse(Buffer.from(h, 'base64url').toString())
  const claims = JSON.parse(Buffer.from(p, 'base64url').toString())
  const valid = crypto.verify('RSA-SHA256', Buffer.from(`${h}.${p}`), vertexKeys().publicKey, Buffer.from(s, 'base64url'))
  const now = Date.now() / 1000
  if (!valid || header.alg !== 'RS256' || header.kid !== 'mock-key-1') return [400, { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' }]
  if (claims.iss !== 'gateway@mock-project.iam.gserviceaccount.com' || claims.aud !== `http://${req.headers.host}/vertex/token`)
    return [400, { error: 'invalid_grant', error_description: 'Invalid iss or aud' }]
  if (claims.scope !== 'https://www.googleapis.com/auth/cloud-platform' || !(claims.exp > now && claims.iat <= now + 60 && claims.exp - claims.iat <= 3600)) {
    return [400, { error: 'invalid_grant', error_description: 'Invalid JWT: scope, iat or exp' }]
  }
  const token = `ya29.mock-${crypto.randomUUID()}`
  vertexTokens.add(token)
  return [200, { access_token: token, expires_in: 3599, token_type: 'Bearer' }]
}

// ---- native answers ----

const CRC = Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})
function crc32(buf) {
  let c = 0xffffffff
  for (const b of buf) c = CRC[(c ^ b) & 0xff] ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}
function frame(eventType, payload) {
  const headers = Buffer.concat(
    Object.entries({ ':event-type': eventType, ':content-type': 'application/json', ':message-type': 'event' }).map(([k, v]) => {
      const len = Buffer.alloc(2)
      len.writeUInt16BE(Buffer.byteLength(v))
      return Buffer.concat([Buffer.from([k.length]), Buffer.from(k), Buffer.from([7]), len, Buffer.from(v)])
    })
  )
  const body = Buffer.from(JSON.stringify({ ...payload, p: 'abcdef' }))
  const prelude = Buffer.alloc(12)
  prelude.writeUInt32BE(16 + headers.length + body.length, 0)
  prelude.writeUInt32BE(headers.length, 4)
  prelude.writeUInt32BE(crc32(prelude.subarray(0, 8)), 8)
  const message = Buffer.concat([prelude, headers, body])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(message))
  return Buffer.concat([message, crc])
}

function bedrockConverse(res, body, stream, h) {
  const text = (body.messages ?? [])
    .flatMap((m) => m.content ?? [])
    .map((c) => c.text ?? '')
    .join(' ')
  const { prompt, completion } = h.usageOf({ input: text })
  const tool = body.toolConfig?.tools?.[0]?.toolSpec?.name
  const usage = { inputTokens: prompt, outputTokens: completion, totalTokens: prompt + completion }
  if (!stream) {
    const content = tool ? [{ toolUse: { toolUseId: 'tooluse_mock', name: tool, input: { city: 'Paris' } } }] : [{ text: h.REPLY }]
    return h.json(res, 200, { output: { message: { role: 'assistant', content } }, stopReason: tool ? 'tool_use' : 'end_turn', usage, metrics: { latencyMs: 5 } })
  }
  res.writeHead(200, { 'content-type': 'application/vnd.amazon.eventstream' })
  res.write(frame('messageStart', { role: 'assistant' }))
  if (tool) {
    res.write(frame('contentBlockStart', { contentBlockIndex: 0, start: { toolUse: { toolUseId: 'tooluse_mock', name: tool } } }))
    res.write(frame('contentBlockDelta', { contentBlockIndex: 0, delta: { toolUse: { input: '{"city":' } } }))
    res.write(frame('contentBlockDelta', { contentBlockIndex: 0, delta: { toolUse: { input: '"Paris"}' } } }))
  } else for (const piece of h.replyPieces()) res.write(frame('contentBlockDelta', { contentBlockIndex: 0, delta: { text: piece } }))
  res.write(frame('contentBlockStop', { contentBlockIndex: 0 }))
  res.write(frame('messageStop', { stopReason: tool ? 'tool_use' : 'end_turn' }))
  res.end(frame('metadata', { usage, metrics: { latencyMs: 5 } }))
}

function hunyuanChat(res, body, h) {
  const text = (body.Messages ?? []).map((m) => m.Content ?? '').join(' ')
  const { prompt, completion } = h.usageOf({ input: text })
  const Usage = { PromptTokens: prompt, CompletionTokens: completion, TotalTokens: prompt + completion }
  const base = { Note: '以上内容为AI生成', Created: Math.floor(Date.now() / 1000), Id: `hy-${crypto.randomUUID()}` }
  if (!body.Stream) {
    return h.json(res, 200, { Response: { ...base, RequestId: base.Id, Choices: [{ FinishReason: 'stop', Message: { Role: 'assistant', Content: h.REPLY } }], Usage } })
  }
  h.sse(res)
  for (const piece of h.replyPieces()) res.write(`data: ${JSON.stringify({ ...base, Choices: [{ Delta: { Role: 'assistant', Content: piece }, FinishReason: '' }], Usage })}\n\n`)
  res.end(`data: ${JSON.stringify({ ...base, Choices: [{ Delta: { Role: 'assistant', Content: '' }, FinishReason: 'stop' }], Usage })}\n\n`)
}

function baiduToken(url) {
  const q = url.searchParams
  if (q.get('grant_type') !== 'client_credentials') return [400, { error: 'unsupported_grant_type', error_description: 'grant type not supported' }]
  if (BAIDU_APPS[q.get('client_id')] !== q.get('client_secret')) return [401, { error: 'invalid_client', error_description: 'unknown client id' }]
  const token = `24.mock-${crypto.randomUUID()}`
  baiduTokens.add(token)
  return [200, { access_token: token, expires_in: 2592000, scope: 'public' }]
}

function ernieChat(res, body, h) {
  const text = (body.messages ?? []).map((m) => m.content ?? '').join(' ')
  const { prompt, completion } = h.usageOf({ input: text })
  const base = { id: `as-${crypto.randomUUID().slice(0, 8)}`, object: 'chat.completion', created: Math.floor(Date.now() / 1000), is_truncated: false, need_clear_history: false }
  const usage = { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion }
  if (!body.stream) return h.json(res, 200, { ...base, result: h.REPLY, finish_reason: 'normal', usage })
  h.sse(res)
  const pieces = h.replyPieces()
  pieces.forEach((piece, i) =>
    res.write(`data: ${JSON.stringify({ ...base, sentence_id: i, is_end: false, result: piece, finish_reason: 'normal', usage: { ...usage, completion_tokens: 0 } })}\n\n`)
  )
  res.end(`data: ${JSON.stringify({ ...base, sentence_id: pieces.length, is_end: true, result: '', finish_reason: 'normal', usage })}\n\n`)
}

function cohere(res, p, body, h) {
  if (p.endsWith('/embed')) {
    const texts = body.texts ?? []
    return h.json(res, 200, {
      id: 'emb-mock',
      embeddings: { float: texts.map(() => [0.1, 0.2, 0.3, 0.4]) },
      texts,
      meta: { billed_units: { input_tokens: h.usageOf({ input: texts }).prompt } },
    })
  }
  if (p.endsWith('/rerank')) {
    return h.json(res, 200, {
      id: 'rr-mock',
      results: (body.documents ?? []).map((_, index) => ({ index, relevance_score: 1 / (index + 1) })),
      meta: { billed_units: { search_units: 1 } },
    })
  }
  const text = (body.messages ?? []).map((m) => (typeof m.content === 'string' ? m.content : '')).join(' ')
  const { prompt, completion } = h.usageOf({ input: text })
  const usage = { billed_units: { input_tokens: prompt, output_tokens: completion }, tokens: { input_tokens: prompt + 60, output_tokens: completion } }
  if (!body.stream) return h.json(res, 200, { id: 'co-mock', finish_reason: 'COMPLETE', message: { role: 'assistant', content: [{ type: 'text', text: h.REPLY }] }, usage })
  h.sse(res)
  const ev = (type, data) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`)
  ev('message-start', { id: 'co-mock', delta: { message: { role: 'assistant', content: [] } } })
  for (const piece of h.replyPieces()) ev('content-delta', { index: 0, delta: { message: { content: { text: piece } } } })
  ev('message-end', { delta: { finish_reason: 'COMPLETE', usage } })
  res.end()
}

/** Handles a supplier path; returns false when the path is not one of these personalities. */
export async function supplierRoute(req, res, p, body, raw, mode, h) {
  if (p.startsWith('/bedrock/model/')) {
    const problem = checkSigV4(req, raw)
    if (problem) return h.json(res, 403, { message: problem })
    const m = p.match(/^\/bedrock\/model\/[^/]+\/(converse|converse-stream)$/)
    if (!m) return h.json(res, 404, { message: `Unknown Bedrock path ${p}` })
    return bedrockConverse(res, body, m[1] === 'converse-stream', h)
  }
  if (p === '/hunyuan/' || p === '/hunyuan') {
    const failure = checkTc3(req, raw)
    if (failure) return h.json(res, 200, { Response: { Error: { Code: failure[0], Message: failure[1] }, RequestId: crypto.randomUUID() } })
    if (req.headers['x-tc-action'] !== 'ChatCompletions') return h.json(res, 200, { Response: { Error: { Code: 'InvalidAction', Message: 'unknown action' } } })
    return hunyuanChat(res, body, h)
  }
  if (p.startsWith('/zhipu/v4/')) {
    const problem = checkZhipu(req)
    if (problem) return h.json(res, 401, { error: { code: '1000', message: `身份验证失败。${problem}` } })
    return h.openAIChat(req, res, body, mode)
  }
  if (p === '/baidu/oauth/2.0/token') {
    const [status, answer] = baiduToken(new URL(req.url, 'http://x'))
    return h.json(res, status, answer)
  }
  if (p.startsWith('/baidu/rpc/2.0/ai_custom/v1/wenxinworkshop/chat/')) {
    // Like Baidu: an unknown token is reported inside a 200 answer.
    if (!baiduTokens.has(new URL(req.url, 'http://x').searchParams.get('access_token')))
      return h.json(res, 200, { error_code: 110, error_msg: 'Access token invalid or no longer valid' })
    return ernieChat(res, body, h)
  }
  if (p.startsWith('/baidu/v2/')) {
    if (!/^Bearer bce-v3\/\S+$/.test(req.headers.authorization ?? ''))
      return h.json(res, 401, { error: { code: 'invalid_iam_token', message: 'IAM Certification failed', type: 'invalid_request_error' } })
    return h.openAIChat(req, res, body, mode)
  }
  if (p.startsWith('/cohere/v2/')) {
    if (!COHERE_KEYS.has((req.headers.authorization ?? '').replace(/^Bearer /, ''))) return h.json(res, 401, { id: 'x', message: 'invalid api token' })
    return cohere(res, p, body, h)
  }
  if (p === '/vertex/service-account.json') return h.json(res, 200, vertexServiceAccount(req))
  if (p === '/vertex/token') {
    const [status, answer] = vertexToken(req, raw)
    return h.json(res, status, answer)
  }
  const vertex = p.match(/^\/vertex\/v1\/projects\/[^/]+\/locations\/[^/]+\/publishers\/(google|anthropic)\/models\/([^/:]+):(\w+)$/)
  if (vertex) {
    if (!vertexTokens.has((req.headers.authorization ?? '').replace(/^Bearer /, ''))) {
      return h.json(res, 401, { error: { code: 401, message: 'Request had invalid authentication credentials.', status: 'UNAUTHENTICATED' } })
    }
    const [, publisher, model, action] = vertex
    if (publisher === 'google') return h.geminiGenerate(res, body, model, action === 'streamGenerateContent', mode)
    if (body.anthropic_version !== 'vertex-2023-10-16' || body.model)
      return h.json(res, 400, { error: { code: 400, message: 'anthropic_version must be vertex-2023-10-16 and model must not be set', status: 'INVALID_ARGUMENT' } })
    return h.anthropicMessages(res, { ...body, model: decodeURIComponent(model) }, mode)
  }
  return false
}
