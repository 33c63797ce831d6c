/**
 * Global handling of failed calls, wired into the QueryClient caches so features need no
 * try/catch. It branches on the error's machine code: rate_limited and internal get fixed messages,
 * method_not_allowed an informational "demo site" toast, 2fa_setup_required a warning and the profile, everything
 * else 'Error: ' + the server message. unauthorized also clears the signed-in user and sends the browser
 * to /login through the handler registered at bootstrap. Forms additionally show `fields`. The
 * session-expired and setup-required toasts carry fixed ids: several queries failing together show one.
 */
import type { FieldValues, Path, UseFormReturn } from 'react-hook-form'
import i18n from '@/i18n'
import { authStore } from '@/stores/auth-store'
import { isApiError } from './api-client'
import { notify } from './notify'

/** Toast ids of answers that many queries can get at once. */
export const SESSION_EXPIRED_TOAST = 'session-expired'
const SETUP_REQUIRED_TOAST = '2fa-setup-required'

let unauthorizedHandler: () => void = () => {}
let setupRequiredHandler: () => void = () => {}

/** Registered once by main.tsx (it owns the router). */
export function setUnauthorizedHandler(handler: () => void) {
  unauthorizedHandler = handler
}

/** Registered by main.tsx: an administrator refused for lack of two-factor sign-in goes to the profile. */
export function setSecondFactorSetupHandler(handler: () => void) {
  setupRequiredHandler = handler
}

export function errorMessage(err: unknown): string {
  if (isApiError(err)) {
    if (err.code === 'rate_limited') return i18n.t('common:errors.tooManyRequests')
    if (err.code === 'internal' && err.status === 500) return i18n.t('common:errors.serverError')
    if (err.code === 'network') return i18n.t('common:errors.network')
    return i18n.t('common:errors.withMessage', { message: err.message })
  }
  const message = err instanceof Error ? err.message : String(err)
  return i18n.t('common:errors.withMessage', { message: message || i18n.t('common:errors.unknown') })
}

export function handleError(err: unknown): void {
  if (err instanceof DOMException && err.name === 'AbortError') return
  if (isApiError(err) && err.code === 'method_not_allowed') {
    notify.info(i18n.t('common:errors.demoSite'))
    return
  }
  if (isApiError(err) && err.code === '2fa_setup_required') {
    notify.warning(i18n.t('common:errors.twoFactorSetupRequired'), { id: SETUP_REQUIRED_TOAST })
    setupRequiredHandler()
    return
  }
  const unauthorized = isApiError(err) && err.code === 'unauthorized'
  notify.error(errorMessage(err), unauthorized ? { id: SESSION_EXPIRED_TOAST } : {})
  if (unauthorized) {
    authStore.clear()
    unauthorizedHandler()
  }
}

/** Puts the server's per-field messages (400 `data.fields`) on the matching form fields. */
export function applyFieldErrors<T extends FieldValues>(form: UseFormReturn<T>, err: unknown): void {
  if (!isApiError(err)) return
  const known = Object.keys(form.getValues())
  for (const [field, message] of Object.entries(err.fields)) {
    if (known.includes(field)) form.setError(field as Path<T>, { type: 'server', message })
  }
}
