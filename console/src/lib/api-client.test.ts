import { describe, expect, it } from 'vitest'
import { ApiError } from './api-client'

describe('ApiError code', () => {
  it('takes the server code and request id when the body has them', () => {
    const err = new ApiError(403, 'stale', {}, { code: 'csrf', request_id: 'rid-9' })
    expect(err.code).toBe('csrf')
    expect(err.requestId).toBe('rid-9')
  })

  it('falls back to the code of the status for a body without one (or an unknown code)', () => {
    expect(new ApiError(429, 'slow').code).toBe('rate_limited')
    expect(new ApiError(405, 'no', {}, { code: 'whatever' }).code).toBe('method_not_allowed')
    expect(new ApiError(400, 'bad').code).toBe('validation_failed')
    expect(new ApiError(500, 'boom').requestId).toBeUndefined()
  })

  it('is network when no answer came', () => {
    expect(new ApiError(0, 'Failed to fetch').code).toBe('network')
  })
})
