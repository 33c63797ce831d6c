/**
 * The browser side of a passkey assertion (@simplewebauthn/browser): request options from a server
 * path, the WebAuthn prompt, and a closed prompt read as one translated "cancelled" error. Used by
 * the passkey sign-in, the passkey second factor and the step-up dialog.
 */
import { startAuthentication } from '@simplewebauthn/browser'
import { api } from './api-client'

export type AuthenticationOptions = Parameters<typeof startAuthentication>[0]['optionsJSON']

/** Runs the browser's WebAuthn prompt; closing it (NotAllowedError) reads as `cancelled`. */
export async function webauthnPrompt<T>(run: () => Promise<T>, cancelled: string): Promise<T> {
  try {
    return await run()
  } catch (err) {
    if (err instanceof Error && (err.name === 'NotAllowedError' || err.name === 'AbortError')) throw new Error(cancelled)
    throw err
  }
}

/** POSTs `optionsPath` for request options and asks the browser for an assertion of them. */
export async function passkeyAssertion(optionsPath: string, cancelled: string) {
  const optionsJSON = await api.post<AuthenticationOptions>(optionsPath)
  return webauthnPrompt(() => startAuthentication({ optionsJSON }), cancelled)
}
