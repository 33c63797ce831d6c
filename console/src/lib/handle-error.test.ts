/** The global error handler's toasts: answers many queries get at once show a single toast. */
import { describe, expect, it, vi } from 'vitest'
import { toast } from 'sonner'
import { ApiError } from './api-client'
import { handleError, SESSION_EXPIRED_TOAST } from './handle-error'

// The signed-in user lives in localStorage, which plain Node has not; here only clear() is called.
vi.mock('@/stores/auth-store', () => ({ authStore: { clear: () => undefined } }))

describe('handleError toasts', () => {
  it('shows one session-expired toast when several queries answer 401 together', () => {
    const before = toast.getToasts().length
    for (let i = 0; i < 3; i++) handleError(new ApiError(401, 'Not logged in or session expired'))
    const expired = toast.getToasts().filter((t) => t.id === SESSION_EXPIRED_TOAST)
    expect(expired).toHaveLength(1)
    expect(toast.getToasts().length - before).toBe(1)
  })

  it('still stacks distinct errors', () => {
    const before = toast.getToasts().length
    handleError(new ApiError(400, 'first'))
    handleError(new ApiError(400, 'second'))
    expect(toast.getToasts().length - before).toBe(2)
  })
})
