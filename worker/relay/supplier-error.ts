/**
 * What clients and users see of a supplier's error text. Key-like strings (OpenAI `sk-…` keys,
 * AWS access key ids, Google API keys, bearer tokens, key/token query parameters) are redacted
 * everywhere the text goes. A channel-side failure (auth, billing, rate, server) is answered with a
 * generic message and the supplier's error code only — its text may name the supplier account, an
 * organisation or internal URLs — while errors about the client's own request (400/404/413/415/422)
 * keep the redacted supplier text, which the client needs to fix the request. Admins read the full
 * (redacted) text in the log detail. The redaction itself is lib/redact.ts.
 */
import { redactSecrets } from '../lib/redact'

const CLIENT_ERROR_STATUSES = new Set([400, 404, 413, 415, 422])

/** Whether an upstream status is about the client's own request (its text may be shown, redacted). */
export const isClientError = (status: number) => CLIENT_ERROR_STATUSES.has(status)

/** The message a client or user sees for a failed upstream attempt. */
export function supplierMessage(status: number, message: string, code?: string | null): string {
  if (isClientError(status)) return redactSecrets(message || 'The upstream refused the request')
  const what = status === 429 ? 'is rate limited' : status === 0 || status >= 500 || status === -1 ? 'failed' : 'refused the request'
  return `The upstream service ${what}${code ? ` (code: ${redactSecrets(code)})` : ''}; please try again later or contact the administrator`
}
