/**
 * The parsed environment (lib/env.ts): good values parse into typed config, malformed ones are
 * refused with a 500 naming the variable (not its value), and each env object is parsed once.
 */
import { describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { ApiError } from './errors'
import { config, shareConfig } from './env'

describe('config(env)', () => {
  it('parses good values into typed config', () => {
    const parsed = config({
      APP_VERSION: '1.2.3',
      CRITICAL_RATE_LIMIT: '100000',
      SETUP_CODE: 'open-sesame',
      SETUP_CODE_ALWAYS: '1',
      TOKEN_SECRET: 's3cret',
      CLIENT_IP_HEADER: ' X-Forwarded-For ',
      TEST_CLOCK: '1',
      ALLOW_PRIVATE_UPSTREAMS: '0',
      SELF_HOSTED_CLIENT_IP: 'unknown',
      DO_LATENCY_TEST: '1',
      DO_LATENCY_MS: '50',
      BASE_PATH: '/gw/',
      CONSOLE_ORIGINS: 'https://console.example.com, http://localhost:5173',
    })
    expect(parsed).toEqual({
      appVersion: '1.2.3',
      criticalRateLimit: 100000,
      setupCode: 'open-sesame',
      setupCodeAlways: true,
      tokenSecret: 's3cret',
      clientIpHeader: 'x-forwarded-for',
      testClock: true,
      allowPrivateUpstreams: false,
      selfHostedClientIp: 'unknown',
      doLatencyMs: 50,
      basePath: '/gw',
      consoleOrigins: ['https://console.example.com', 'http://localhost:5173'],
    })
  })

  it('gives defaults when nothing is set, and TOML numbers count as text', () => {
    expect(config({})).toEqual({
      appVersion: '0.0.0',
      criticalRateLimit: 20,
      setupCode: undefined,
      setupCodeAlways: false,
      tokenSecret: undefined,
      clientIpHeader: undefined,
      testClock: false,
      allowPrivateUpstreams: false,
      selfHostedClientIp: undefined,
      doLatencyMs: 0,
      basePath: '',
      consoleOrigins: [],
    })
    expect(config({ CRITICAL_RATE_LIMIT: 30, SETUP_CODE: '', DO_LATENCY_MS: '50' })).toMatchObject({ criticalRateLimit: 30, setupCode: undefined, doLatencyMs: 0 })
    expect(config({ SELF_HOSTED_CLIENT_IP: '127.0.0.1' }).selfHostedClientIp).toBe('127.0.0.1')
  })

  it('refuses malformed values with a 500 that names the variable, not its value', () => {
    const bad: Record<string, string>[] = [
      { TEST_CLOCK: 'true' },
      { ALLOW_PRIVATE_UPSTREAMS: 'yes' },
      { CRITICAL_RATE_LIMIT: '0' },
      { CRITICAL_RATE_LIMIT: '20req' },
      { DO_LATENCY_MS: '-5' },
      { CLIENT_IP_HEADER: 'x-client-chosen' },
      { SELF_HOSTED_CLIENT_IP: 'my-laptop' },
      { BASE_PATH: 'console' },
      { CONSOLE_ORIGINS: 'https://console.example.com/panel' },
    ]
    for (const vars of bad) {
      const [name, value] = Object.entries(vars)[0]!
      let thrown: unknown
      try {
        config(vars)
      } catch (err) {
        thrown = err
      }
      expect(thrown, name).toBeInstanceOf(ApiError)
      expect((thrown as ApiError).status).toBe(500)
      expect((thrown as ApiError).message).toContain(name)
      expect((thrown as ApiError).message).not.toContain(value)
    }
  })

  it('parses each env object once and shares the parse with a rebuilt copy', () => {
    const vars = { TEST_CLOCK: '1' }
    const first = config(vars)
    vars.TEST_CLOCK = '0'
    expect(config(vars)).toBe(first)
    const copy = { ...vars }
    shareConfig(vars, copy)
    expect(config(copy)).toBe(first)
  })

  it('accepts the test runtime env', () => {
    expect(config(env).criticalRateLimit).toBe(1000)
  })

  it('answers a malformed variable with the management envelope', async () => {
    const { default: worker } = await import('../index')
    const broken = { ...env, TEST_CLOCK: 'on' } as unknown as Env
    const res = await worker.fetch(new Request('http://gateway.test/api/status'), broken, { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext)
    expect(res.status).toBe(500)
    const body = (await res.json()) as { success: boolean; message: string }
    expect(body.success).toBe(false)
    expect(body.message).toContain('TEST_CLOCK')
  })
})
