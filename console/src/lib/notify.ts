/**
 * Toasts with the durations (error 5 s, warning 10 s, success 1.5 s, info 3 s,
 * notice 20 s). Components call these instead of sonner directly so the durations stay in one place.
 * A toast given an `id` replaces the one already showing under that id instead of stacking a copy.
 */
import { toast } from 'sonner'

export const TOAST_DURATION = { error: 5000, warning: 10000, success: 1500, info: 3000, notice: 20000 } as const

interface NotifyOptions {
  id?: string
}

export const notify = {
  error: (message: string, opts: NotifyOptions = {}) => toast.error(message, { duration: TOAST_DURATION.error, ...opts }),
  warning: (message: string, opts: NotifyOptions = {}) => toast.warning(message, { duration: TOAST_DURATION.warning, ...opts }),
  success: (message: string) => toast.success(message, { duration: TOAST_DURATION.success }),
  info: (message: string) => toast.info(message, { duration: TOAST_DURATION.info }),
  notice: (message: string) => toast(message, { duration: TOAST_DURATION.notice }),
}
