/**
 * The management failure envelope: `{success:false, message, code, request_id, data?}` — the code
 * from the error or its status, the request id equal to the `X-Request-Id` header.
 */
import { describe, expect, it } from 'vitest'
import { TestClient, setupRoot } from '../test/client'
import { ApiError, managementBody, managementCode } from './errors'

describe('management error codes', () => {
  it('derive from the status unless the error names a management code', () => {
    expect(managementCode(new ApiError(400, 'bad'))).toBe('validation_failed')
    expect(managementCode(new ApiError(413, 'big'))).toBe('validation_failed')
    expect(managementCode(new ApiError(401, 'who'))).toBe('unauthorized')
    expect(managementCode(new ApiError(403, 'no'))).toBe('forbidden')
    expect(managementCode(new ApiError(403, 'stale', { code: 'csrf' }))).toBe('csrf')
    expect(managementCode(new ApiError(404, 'gone'))).toBe('not_found')
    expect(managementCode(new ApiError(409, 'taken'))).toBe('conflict')
    expect(managementCode(new ApiError(429, 'slow'))).toBe('rate_limited')
    expect(managementCode(new ApiError(502, 'up'))).toBe('upstream_failed')
    expect(managementCode(new ApiError(500, 'boom'))).toBe('internal')
    // A relay-only code (OpenAI vocabulary) falls back to the status.
    expect(managementCode(new ApiError(400, 'x', { code: 'invalid_request' }))).toBe('validation_failed')
  })

  it('the body carries data only when the error has some', () => {
    expect(managementBody(new ApiError(404, 'gone'), 'rid-1')).toEqual({ success: false, message: 'gone', code: 'not_found', request_id: 'rid-1' })
    expect(managementBody(new ApiError(400, 'bad', { data: { fields: { name: 'required' } } }), 'rid-2')).toEqual({
      success: false,
      message: 'bad',
      code: 'validation_failed',
      request_id: 'rid-2',
      data: { fields: { name: 'required' } },
    })
  })

  it('a real /api failure answers the envelope with the request id of its header', async () => {
    const anon = new TestClient()
    const res = await anon.get('/api/user/self')
    expect(res.status).toBe(401)
    expect(res.body).toMatchObject({ success: false, code: 'unauthorized', request_id: res.headers.get('X-Request-Id') })
    expect(typeof (res.body as { message?: unknown }).message).toBe('string')
  })

  it('an unknown /api path is route_not_found, a missing record not_found', async () => {
    const root = await setupRoot()
    const route = await root.get('/api/no-such-endpoint')
    expect(route.status).toBe(404)
    expect(route.body).toMatchObject({ success: false, code: 'route_not_found' })
    const record = await root.get('/api/user/987654')
    expect(record.status).toBe(404)
    expect(record.body).toMatchObject({ success: false, code: 'not_found' })
  })
})
