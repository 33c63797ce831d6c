/**
 * Identity flows end to end against the running gateway (workerd via Miniflare) and real local
 * servers started here: an OIDC provider (oauth2-mock-server: discovery, authorize redirect,
 * token endpoint, JWKS), a fake WeChat server (codes valid 3 minutes) and an SMTP server that
 * captures the verification and reset mails the Worker sends over connect().
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { OAuth2Server } from 'oauth2-mock-server'
import { ApiSession, rootSession } from './support/api'
import { startSmtpCapture, type SmtpCapture } from '../test/smtp-capture'

const CLIENT_ID = 'e2e-gateway'
const CLIENT_SECRET = 'e2e-oidc-secret'
const WECHAT_TOKEN = 'e2e-wechat-token'
const SMTP = { username: 'mailer@e2e.test', password: 'e2e-smtp-password' }
const WECHAT_CODE_TTL_MS = 3 * 60 * 1000
const run = Date.now().toString(36)

let oidc: OAuth2Server
let smtp: SmtpCapture
let wechat: http.Server
let wechatUrl = ''
/** Codes the fake WeChat server hands out: code → openid and when it was shown to the user. */
const wechatCodes = new Map<string, { openid: string; issuedAt: number }>()
let root: ApiSession

function startWeChatServer() {
  wechat = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    res.setHeader('content-type', 'application/json')
    if (url.pathname !== '/api/wechat/user') return res.writeHead(404).end('{}')
    if (req.headers.authorization !== WECHAT_TOKEN) return res.writeHead(401).end(JSON.stringify({ success: false, message: 'unauthorized' }))
    const entry = wechatCodes.get(url.searchParams.get('code') ?? '')
    if (!entry || Date.now() - entry.issuedAt > WECHAT_CODE_TTL_MS) {
      return res.end(JSON.stringify({ success: false, message: 'verification code is wrong or expired' }))
    }
    res.end(JSON.stringify({ success: true, message: '', data: entry.openid }))
  })
  return new Promise<void>((resolve) =>
    wechat.listen(0, '127.0.0.1', () => {
      wechatUrl = `http://127.0.0.1:${(wechat.address() as AddressInfo).port}`
      resolve()
    })
  )
}

async function anonymous() {
  const s = new ApiSession(inject('gatewayUrl'))
  await s.call('GET', '/api/status')
  return s
}

/** What a browser does at the provider: follow the authorization URL and read the redirect back. */
async function authorize(authorizationUrl: string) {
  const res = await fetch(authorizationUrl, { redirect: 'manual' })
  expect(res.status).toBe(302)
  const back = new URL(res.headers.get('location')!)
  expect(`${back.origin}${back.pathname}`).toBe(`${inject('gatewayUrl')}/oauth/oidc`)
  return { code: back.searchParams.get('code')!, state: back.searchParams.get('state')! }
}

/** Overrides claims of every token the provider signs while `call` runs (access and ID token alike). */
async function withTokenClaims<T>(claims: Record<string, unknown>, call: () => Promise<T>): Promise<T> {
  const handler = (token: { payload: Record<string, unknown> }) => Object.assign(token.payload, claims)
  oidc.service.on('beforeTokenSigning', handler)
  try {
    return await call()
  } finally {
    oidc.service.off('beforeTokenSigning', handler)
  }
}

beforeAll(async () => {
  oidc = new OAuth2Server()
  await oidc.issuer.keys.generate('RS256')
  await oidc.start(0, '127.0.0.1')
  smtp = await startSmtpCapture(SMTP)
  await startWeChatServer()
  root = await rootSession()
  await root.ok('PUT', '/api/option/', {
    options: {
      OIDCIssuer: oidc.issuer.url!,
      OIDCClientId: CLIENT_ID,
      OIDCClientSecret: CLIENT_SECRET,
      OIDCAuthEnabled: 'true',
      WeChatServerAddress: wechatUrl,
      WeChatServerToken: WECHAT_TOKEN,
      WeChatAuthEnabled: 'true',
      SMTPServer: '127.0.0.1',
      SMTPPort: String(smtp.port),
      SMTPAccount: SMTP.username,
      SMTPToken: SMTP.password,
      SMTPFrom: 'noreply@e2e.test',
    },
  })
})

afterAll(async () => {
  // The gateway is shared with the other e2e files: leave the login methods as they were.
  await root?.call('PUT', '/api/option/', {
    options: { OIDCAuthEnabled: 'false', WeChatAuthEnabled: 'false', EmailVerificationEnabled: 'false', SMTPServer: '' },
  })
  await oidc?.stop()
  await smtp?.stop()
  await new Promise<void>((resolve) => (wechat ? wechat.close(() => resolve()) : resolve()))
})

describe('OIDC against a local oauth2-mock-server', () => {
  it('logs in through discovery, the authorize redirect, the token endpoint and the JWKS', async () => {
    const username = `oidc${run}`
    const browser = await anonymous()
    const endpoint = await browser.ok<string>('GET', '/api/oauth/endpoint')
    expect(new URL(endpoint).searchParams.get('scope')).toBe('openid email profile')
    const { code, state } = await authorize(endpoint)
    const claims = { sub: `sub-${run}`, preferred_username: username, email: `${username}@idp.test`, email_verified: true, name: 'E2E OIDC' }
    const login = await withTokenClaims(claims, () => browser.call('GET', `/api/oauth/oidc?code=${code}&state=${state}`))
    expect(login.status).toBe(200)
    expect(login.body).toMatchObject({ message: 'Logged in', data: { username, oidc_id: `sub-${run}`, email: `${username}@idp.test` } })
    expect((await browser.ok<{ username: string }>('GET', '/api/user/self')).username).toBe(username)
    // The state is spent.
    expect((await browser.call('GET', `/api/oauth/oidc?code=${code}&state=${state}`)).status).toBe(400)
  })

  it('refuses a provider error, a token for another audience and a bad state', async () => {
    const browser = await anonymous()
    const first = await authorize(await browser.ok<string>('GET', '/api/oauth/endpoint'))
    oidc.service.once('beforeResponse', (response) => {
      response.statusCode = 400
      response.body = { error: 'invalid_grant', error_description: 'code expired' }
    })
    const refused = await browser.call('GET', `/api/oauth/oidc?code=${first.code}&state=${first.state}`)
    expect(refused.status).toBe(400)
    expect(refused.body.message).toBe('OIDC login failed: code expired')

    const second = await authorize(await browser.ok<string>('GET', '/api/oauth/endpoint'))
    const audience = await withTokenClaims({ aud: 'another-client' }, () => browser.call('GET', `/api/oauth/oidc?code=${second.code}&state=${second.state}`))
    expect(audience.status).toBe(400)
    expect(audience.body.message).toBe('OIDC login failed: the ID token is invalid (ERR_JWT_CLAIM_VALIDATION_FAILED)')

    const forged = await browser.call('GET', `/api/oauth/oidc?code=${second.code}&state=${'Z'.repeat(32)}`)
    expect(forged.status).toBe(400)
    expect((await browser.call('GET', '/api/user/self')).status).toBe(401)
  })
})

describe('WeChat against a local WeChat server', () => {
  it('logs in with a fresh code, binds from the profile, and refuses an expired code', async () => {
    wechatCodes.set('100001', { openid: `openid-login-${run}`, issuedAt: Date.now() })
    const browser = await anonymous()
    const login = await browser.call('GET', '/api/oauth/wechat?code=100001')
    expect(login.status).toBe(200)
    expect(login.body.data.wechat_id).toBe(`openid-login-${run}`)

    const user = await anonymous()
    await user.ok('POST', '/api/user/register', { username: `wx${run}`, password: 'user-password-1' })
    await user.login(`wx${run}`, 'user-password-1')
    wechatCodes.set('100002', { openid: `openid-bind-${run}`, issuedAt: Date.now() })
    const bound = await user.call('GET', '/api/oauth/wechat/bind?code=100002')
    expect(bound.body).toMatchObject({ success: true, message: 'bind', data: { wechat_id: `openid-bind-${run}` } })

    wechatCodes.set('100003', { openid: `openid-late-${run}`, issuedAt: Date.now() - WECHAT_CODE_TTL_MS - 1000 })
    const expired = await (await anonymous()).call('GET', '/api/oauth/wechat?code=100003')
    expect(expired.status).toBe(400)
    expect(expired.body.message).toBe('WeChat login failed: verification code is wrong or expired')
  })
})

describe('mail over SMTP to a local server', () => {
  it('registers with an emailed verification code', async () => {
    await root.ok('PUT', '/api/option/', { key: 'EmailVerificationEnabled', value: 'true' })
    const email = `reg-${run}@example.com`
    const browser = await anonymous()
    await browser.ok('GET', `/api/verification?email=${encodeURIComponent(email)}`)
    const [mail] = smtp.to(email)
    expect(mail!.user).toBe(SMTP.username)
    const code = /verification code is: ([A-Z0-9]{6})/.exec(mail!.text)![1]!
    expect((await browser.call('GET', `/api/verification?email=${encodeURIComponent(email)}`)).status).toBe(429)
    const registered = await browser.call('POST', '/api/user/register', { username: `mail${run}`, password: 'user-password-1', email, verification_code: code })
    expect(registered.status).toBe(200)
    await root.ok('PUT', '/api/option/', { key: 'EmailVerificationEnabled', value: 'false' })
  })

  it('resets a password from the emailed link once', async () => {
    const email = `reset-${run}@example.com`
    const browser = await anonymous()
    await browser.ok('POST', '/api/user/register', { username: `rst${run}`, password: 'old-password-1', email })
    await browser.ok('GET', `/api/reset_password?email=${encodeURIComponent(email)}`)
    const link = new URL(/http:\/\/\S+\/user\/reset\S+/.exec(smtp.to(email)[0]!.text)![0])
    expect(link.origin).toBe(inject('gatewayUrl'))
    const body = { email: link.searchParams.get('email'), token: link.searchParams.get('token') }
    const password = await browser.ok<string>('POST', '/api/user/reset', body)
    await (await anonymous()).login(`rst${run}`, password)
    const reused = await browser.call('POST', '/api/user/reset', body)
    expect(reused.status).toBe(400)
    expect(reused.body.message).toBe('Invalid link')
  })
})
