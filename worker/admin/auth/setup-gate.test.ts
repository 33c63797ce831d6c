import { describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test'
import entry from '../../index'
import { ROOT, setupRoot } from '../../test/client'
import { isLoopbackRequest, ROOT_INITIAL_QUOTA } from './setup-gate'
import { LOG_TYPE } from '../../../shared/contract/enums'

/** Calls the app with extra env vars and a client address, carrying the XSRF cookie like a browser. */
async function setupAs(ip: string | undefined, vars: Record<string, string>, body: Record<string, unknown>, extra: Record<string, string> = {}) {
  const withEnv = { ...env, ...vars } as Env
  const headers: Record<string, string> = { ...(ip ? { 'cf-connecting-ip': ip } : {}), ...extra }
  const call = async (req: Request) => {
    const ctx = createExecutionContext()
    // Through the real entry, which on the self-hosted socket replaces a client's CF-Connecting-IP.
    const res = await entry.fetch(req as Request<unknown, IncomingRequestCfProperties>, withEnv, ctx)
    await waitOnExecutionContext(ctx)
    return res
  }
  const status = await call(new Request('http://gateway.test/api/status', { headers }))
  const xsrf = status.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .find((c) => c.startsWith('XSRF-TOKEN='))!
  const statusBody = (await status.json()) as { data: { setup_code_required: boolean } }
  const res = await call(
    new Request('http://gateway.test/api/setup', {
      method: 'POST',
      headers: { ...headers, cookie: xsrf, 'x-xsrf-token': xsrf.slice('XSRF-TOKEN='.length), 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
  )
  return { codeRequired: statusBody.data.setup_code_required, status: res.status, body: (await res.json()) as { message: string } }
}

describe('root starting balance', () => {
  it('gives root 100,000,000 units explained by exactly one system log row', async () => {
    const root = await setupRoot()
    const self = await root.get('/api/user/self')
    expect(self.body.data.quota).toBe(ROOT_INITIAL_QUOTA)
    const logs = await env.DB.prepare('SELECT type, quota, username FROM logs WHERE user_id = ?').bind(self.body.data.id).all()
    expect(logs.results).toEqual([{ type: LOG_TYPE.SYSTEM, quota: ROOT_INITIAL_QUOTA, username: ROOT.username }])
  })

  it('a refused second setup writes no log row for the existing root', async () => {
    await setupRoot()
    const again = await setupAs(undefined, {}, { username: ROOT.username, password: 'another-pass-1' })
    expect(again.status).toBe(409)
    const sum = await env.DB.prepare('SELECT COUNT(*) AS n, SUM(quota) AS q FROM logs').first<{ n: number; q: number }>()
    expect(sum).toEqual({ n: 1, q: ROOT_INITIAL_QUOTA })
  })
})

describe('setup code', () => {
  const account = { username: 'owner', password: 'owner-password-1' }

  it('refuses a remote setup when no code is configured, and says how to configure one', async () => {
    const res = await setupAs('203.0.113.7', {}, account)
    expect(res.codeRequired).toBe(true)
    expect(res.status).toBe(403)
    expect(res.body.message).toContain('wrangler secret put SETUP_CODE')
  })

  it('a remote setup needs the configured code; a wrong one is refused', async () => {
    const vars = { SETUP_CODE: 'open-sesame-42' }
    expect((await setupAs('203.0.113.7', vars, account)).status).toBe(403)
    expect((await setupAs('203.0.113.7', vars, { ...account, code: 'open-sesame-41' })).body.message).toBe('Invalid setup code')
    const ok = await setupAs('203.0.113.7', vars, { ...account, code: 'open-sesame-42' })
    expect(ok.status).toBe(200)
  })

  it('loopback sets up without a code, unless the server says its loopback cannot be trusted', async () => {
    const vars = { SETUP_CODE: 'open-sesame-42', SETUP_CODE_ALWAYS: '1' }
    const spoofed = await setupAs('127.0.0.1', vars, account)
    expect(spoofed.codeRequired).toBe(true)
    expect(spoofed.status).toBe(403)
    const local = await setupAs('127.0.0.1', { SETUP_CODE: 'open-sesame-42' }, account)
    expect(local.codeRequired).toBe(false)
    expect(local.status).toBe(200)
  })

  it('spoofed cf-connecting-ip ignored on the local runtime', async () => {
    // npm start on a public interface (SELF_HOSTED_CLIENT_IP=unknown): a client claiming loopback still needs the code.
    const publicLocal = { SELF_HOSTED_CLIENT_IP: 'unknown', SETUP_CODE: 'open-sesame-42' }
    const claimed = await setupAs('127.0.0.1', publicLocal, account)
    expect(claimed.codeRequired).toBe(true)
    expect(claimed.status).toBe(403)
    // Behind a trusted proxy on this machine: the proxy's header decides, not the client's CF-Connecting-IP.
    const proxied = { SELF_HOSTED_CLIENT_IP: '127.0.0.1', SETUP_CODE: 'open-sesame-42', CLIENT_IP_HEADER: 'X-Real-IP' }
    const spoofed = await setupAs('127.0.0.1', proxied, account, { 'x-real-ip': '203.0.113.7' })
    expect(spoofed.codeRequired).toBe(true)
    expect(spoofed.status).toBe(403)
    // Listening on loopback only: every peer is this machine, whatever it claims.
    const local = await setupAs('203.0.113.7', { SELF_HOSTED_CLIENT_IP: '127.0.0.1', SETUP_CODE: 'open-sesame-42' }, account)
    expect(local.codeRequired).toBe(false)
    expect(local.status).toBe(200)
  })

  it('recognises loopback addresses only', () => {
    expect(['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1'].every((ip) => isLoopbackRequest(ip))).toBe(true)
    expect(isLoopbackRequest(undefined)).toBe(true)
    expect(['10.0.0.1', '203.0.113.7', '::2', '128.0.0.1', '127.0.0.1.evil'].some((ip) => isLoopbackRequest(ip))).toBe(false)
  })
})
