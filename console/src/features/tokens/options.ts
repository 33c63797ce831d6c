/**
 * Token states (enabled, disabled, exhausted: no quota left, expired: past its expiry) derived from a row — the server
 * stores only enabled/disabled — with their label keys and badge colours, and the masked key.
 */
import type { Token } from './api'
import { TOKEN_STATUS } from '@contract/enums'

export type TokenState = 'enabled' | 'disabled' | 'exhausted' | 'expired'

export function tokenState(token: Token, now = Date.now() / 1000): TokenState {
  if (token.expired_time !== -1 && token.expired_time < now) return 'expired'
  if (!token.unlimited_quota && token.remain_quota <= 0) return 'exhausted'
  return token.status === TOKEN_STATUS.ENABLED ? 'enabled' : 'disabled'
}

export const STATE_CLASS: Record<TokenState, string> = {
  enabled: 'border-transparent bg-success/15 text-success',
  disabled: 'border-transparent bg-muted text-muted-foreground',
  exhausted: 'border-transparent bg-warning/20 text-amber-700 dark:text-amber-300',
  expired: 'border-transparent bg-destructive/15 text-destructive',
}

/** `sk-abcd…wxyz`: enough to recognise a key without showing it. */
export const maskKey = (key: string) => (key.length > 14 ? `${key.slice(0, 7)}…${key.slice(-4)}` : key)
