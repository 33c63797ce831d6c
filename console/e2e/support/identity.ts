/**
 * What the sign-in e2e files (identity-login, identity-binding, identity-guards) share: the root and
 * member accounts, local stand-ins for the providers — an OIDC issuer (oauth2-mock-server), a fake
 * WeChat server, an SMTP capture — saved into the gateway's settings by `useIdentityProviders()`,
 * the Turnstile widget stand-in, and the screenshot variants.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll } from 'vitest'
import { OAuth2Server } from 'oauth2-mock-server'
import type { Browser, Page } from 'playwright-core'
import { startSmtpCapture, type SmtpCapture } from '../../../worker/test/smtp-capture'
import { DESKTOP, PHONE, openPage } from './browser'
import { presetTheme } from './console'
import { saveOptions } from './fresh-server'
import type { GatewaySuite } from './suite'

export const root = { username: 'identityroot', password: 'identity-root-1' }
export const member = { username: 'idmember', password: 'id-member-pass-1' }
const CLIENT_ID = 'console-e2e'
const CLIENT_SECRET = 'console-e2e-secret'
const WECHAT_TOKEN = 'console-e2e-wechat'
const SMTP = { username: 'mailer@identity.test', password: 'smtp-pass' }

/** A QR-looking picture (finder squares and a fixed pattern) as a data URL, which the CSP allows. */
function fakeQrCode(): string {
  const cells: string[] = []
  for (let y = 0; y < 21; y++) {
    for (let x = 0; x < 21; x++) {
      const finder = (x < 7 && y < 7) || (x > 13 && y < 7) || (x < 7 && y > 13)
      const on = finder ? Math.max(Math.abs((x % 14) - 3), Math.abs((y % 14) - 3)) !== 2 : (x * 7 + y * 13 + ((x * y) % 5)) % 3 === 0
      if (on) cells.push(`<rect x="${x}" y="${y}" width="1" height="1"/>`)
    }
  }
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="-1 -1 23 23"><rect x="-1" y="-1" width="23" height="23" fill="#fff"/><g fill="#111">${cells.join('')}</g></svg>`
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`
}

/**
 * Stands in for https://challenges.cloudflare.com/turnstile/v0/api.js: a `turnstile` object that
 * draws a box and, when `solve` is on, hands out fake-token-1, fake-token-2, … (one per render or reset).
 */
function fakeTurnstileScript(solve: boolean): string {
  return `(() => {
    let issued = 0
    const widgets = {}
    const solveSoon = (id) => setTimeout(() => {
      const w = widgets[id]
      if (!w) return
      const token = 'fake-token-' + ++issued
      w.label.textContent = 'Verified: ' + token
      w.opts.callback && w.opts.callback(token)
    }, 150)
    window.turnstile = {
      render(el, opts) {
        const id = 'w' + Object.keys(widgets).length
        const box = document.createElement('div')
        box.setAttribute('data-fake-turnstile', opts.sitekey)
        box.style.cssText = 'width:300px;height:65px;border:1px solid #8884;border-radius:6px;display:flex;align-items:center;padding:0 16px;font:14px sans-serif;color:#888'
        const label = document.createElement('span')
        label.textContent = 'Verifying you are human…'
        box.appendChild(label)
        el.appendChild(box)
        widgets[id] = { el, box, label, opts }
        ${solve ? 'solveSoon(id)' : ''}
        return id
      },
      reset(id) {
        const w = widgets[id]
        if (!w) return
        w.label.textContent = 'Verifying you are human…'
        ${solve ? 'solveSoon(id)' : ''}
      },
      remove(id) {
        const w = widgets[id]
        if (w) w.box.remove()
        delete widgets[id]
      },
    }
  })()`
}

export async function useTurnstileStandIn(page: Page, solve: boolean): Promise<{ loads: () => number }> {
  let loads = 0
  await page.route('https://challenges.cloudflare.com/turnstile/v0/api.js*', (route) => {
    loads++
    return route.fulfill({ contentType: 'application/javascript', body: fakeTurnstileScript(solve) })
  })
  return { loads: () => loads }
}

/** Screenshot variants; the steps inside use test ids, so the Chinese one runs them too. */
export const THEMES = [
  { name: 'light', viewport: DESKTOP, theme: 'light', locale: 'en-US' },
  { name: 'dark', viewport: DESKTOP, theme: 'dark', locale: 'en-US' },
  { name: 'phone', viewport: PHONE, theme: 'light', locale: 'en-US' },
  { name: 'phone-dark-zh', viewport: PHONE, theme: 'dark', locale: 'zh-CN' },
] as const

export async function themedPage(browser: Browser, baseURL: string, variant: (typeof THEMES)[number]) {
  const opened = await openPage(browser, { baseURL, viewport: variant.viewport, locale: variant.locale })
  await presetTheme(opened.page, variant.theme)
  return opened
}

export interface IdentityProviders {
  oidc: OAuth2Server
  smtp: SmtpCapture
  /** Codes the fake WeChat server accepts: code → openid. */
  wechatCodes: Map<string, string>
  /** Claims the OIDC provider puts into the next tokens it signs. */
  claims: Record<string, unknown>
}

/**
 * Starts the OIDC issuer, the fake WeChat server and the SMTP capture for the file and saves them
 * (with GitHub and Lark client ids) into the gateway's settings; stops them after the file.
 */
export function useIdentityProviders(suite: GatewaySuite): IdentityProviders {
  const providers = { wechatCodes: new Map<string, string>(), claims: {} } as IdentityProviders
  let wechat: http.Server | undefined

  beforeAll(async () => {
    const oidc = new OAuth2Server()
    providers.oidc = oidc
    await oidc.issuer.keys.generate('RS256')
    await oidc.start(0, '127.0.0.1')
    oidc.service.on('beforeTokenSigning', (token: { payload: Record<string, unknown> }) => Object.assign(token.payload, providers.claims))
    providers.smtp = await startSmtpCapture(SMTP)
    const server = http.createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1')
      res.setHeader('content-type', 'application/json')
      if (url.pathname !== '/api/wechat/user' || req.headers.authorization !== WECHAT_TOKEN) return res.writeHead(401).end('{}')
      const openid = providers.wechatCodes.get(url.searchParams.get('code') ?? '')
      res.end(JSON.stringify(openid ? { success: true, message: '', data: openid } : { success: false, message: 'verification code is wrong or expired' }))
    })
    wechat = server
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    await saveOptions(suite.server.url, suite.session, {
      OIDCIssuer: oidc.issuer.url!,
      OIDCClientId: CLIENT_ID,
      OIDCClientSecret: CLIENT_SECRET,
      OIDCAuthEnabled: 'true',
      WeChatServerAddress: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      WeChatServerToken: WECHAT_TOKEN,
      WeChatAccountQRCodeImageURL: fakeQrCode(),
      WeChatAuthEnabled: 'true',
      GitHubClientId: 'Iv1.console-e2e',
      GitHubClientSecret: 'github-secret',
      GitHubOAuthEnabled: 'true',
      LarkClientId: 'cli_console_e2e',
      LarkClientSecret: 'lark-secret',
      LarkAuthEnabled: 'true',
      SMTPServer: '127.0.0.1',
      SMTPPort: String(providers.smtp.port),
      SMTPAccount: SMTP.username,
      SMTPToken: SMTP.password,
      SMTPFrom: 'noreply@identity.test',
    })
  })

  afterAll(async () => {
    await providers.oidc?.stop()
    await providers.smtp?.stop()
    await new Promise<void>((resolve) => (wechat ? wechat.close(() => resolve()) : resolve()))
  })
  return providers
}
