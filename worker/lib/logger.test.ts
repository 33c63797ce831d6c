/**
 * The structured logger: one JSON line per entry with level, msg, time and fields; a request's
 * lines carry its request id (the one in X-Request-Id); secret-named fields and key-like text are
 * redacted; errors become {name, message, stack}.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import worker from '../index'
import { logger, logLine, REDACTED, requestLogger } from './logger'

afterEach(() => vi.restoreAllMocks())

const lines = (spy: { mock: { calls: unknown[][] } }) => spy.mock.calls.map((call) => JSON.parse(String(call[0])))

describe('logger', () => {
  it('writes one JSON line per entry: level, msg, time, base and call fields', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {})
    const info = vi.spyOn(console, 'info').mockImplementation(() => {})
    const log = logger({ job: 'cron' }).child({ step: 'archive' })
    log.error('archive failed', { rows: 3 })
    log.info('archive done')
    expect(error).toHaveBeenCalledTimes(1)
    const [line] = lines(error)
    expect(line).toEqual({ level: 'error', msg: 'archive failed', time: expect.any(String), job: 'cron', step: 'archive', rows: 3 })
    expect(Number.isNaN(Date.parse(line.time))).toBe(false)
    expect(lines(info)[0]).toMatchObject({ level: 'info', msg: 'archive done', job: 'cron', step: 'archive' })
  })

  it('redacts secret-named fields at any depth and key-like text anywhere', () => {
    const line = JSON.parse(
      logLine('warn', 'call with Bearer abcdefghijklmnop failed', {
        authorization: 'Bearer sk-abcdefghijklmnopqrstuvwxyz',
        headers: { 'x-api-key': 'plain-secret-value', cookie: 'session=1' },
        password: 'hunter2',
        token: 'abc',
        client_secret: 'xyz',
        api_key: 'k',
        tokenId: 12,
        keyHash: 'h1',
        detail: 'upstream said: invalid key sk-livekey1234567890',
      })
    )
    expect(line).toMatchObject({
      msg: 'call with Bearer [redacted] failed',
      authorization: REDACTED,
      headers: { 'x-api-key': REDACTED, cookie: REDACTED },
      password: REDACTED,
      token: REDACTED,
      client_secret: REDACTED,
      api_key: REDACTED,
      tokenId: 12,
      keyHash: 'h1',
      detail: 'upstream said: invalid key sk-[redacted]',
    })
    expect(JSON.stringify(line)).not.toMatch(/hunter2|plain-secret-value|livekey|abcdefghij/)
  })

  it('turns errors (and their causes) into name, message and stack', () => {
    const err = new Error('wallet down', { cause: new TypeError('fetch failed') })
    const line = JSON.parse(logLine('error', 'settle failed', { error: err }))
    expect(line.error).toMatchObject({
      name: 'Error',
      message: 'wallet down',
      stack: expect.stringContaining('wallet down'),
      cause: { name: 'TypeError', message: 'fetch failed' },
    })
  })

  it('a request logger carries the request id', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    requestLogger('rid-1').warn('slow', { ms: 5 })
    expect(lines(warn)[0]).toMatchObject({ level: 'warn', msg: 'slow', request_id: 'rid-1', ms: 5 })
  })

  it("a failed request's log line carries the id of its X-Request-Id header", async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {})
    // A misconfigured variable makes the handler throw a 500, which the one renderer logs.
    const ctx = createExecutionContext()
    const res = await worker.fetch(new Request('http://gateway.test/api/status'), { ...env, CRITICAL_RATE_LIMIT: 'not-a-number' } as unknown as Env, ctx)
    await waitOnExecutionContext(ctx)
    expect(res.status).toBe(500)
    const id = res.headers.get('X-Request-Id')
    expect(id).toBeTruthy()
    const failed = lines(error).filter((l) => l.msg === 'request failed')
    expect(failed).toEqual([expect.objectContaining({ level: 'error', request_id: id, method: 'GET', path: '/api/status', status: 500 })])
  })
})
