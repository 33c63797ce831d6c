/** Types of scripts/mock-rate-limits.mjs for the worker tests' fetch-level mock. */
export interface MockRateLimitReply {
  status: number
  headers: Record<string, string>
  body: unknown
}
export function tpmLimit(key: string | undefined): number | undefined
export function requestTooLarge(path: string, body: Record<string, unknown>, limit: number | undefined): MockRateLimitReply | undefined
