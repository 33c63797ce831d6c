/**
 * The second step of signing in (issue 36). When the password or an external sign-in answers
 * `{require_2fa: true, methods}`, the server holds a pending sign-in for five minutes (an HttpOnly
 * cookie); this browser remembers that, and which factors the account has, for as long in
 * sessionStorage, and /login shows this prompt instead of the password form: "Use a passkey"
 * (POST /api/user/login/2fa/passkey…) when the account has one, and the code field (a TOTP code or a
 * backup code, POST /api/user/login/2fa) when it has TOTP.
 */
import { useState } from 'react'
import { useMutation } from '@tanstack/react-query'
import { Fingerprint, Loader2, ShieldCheck } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { browserSupportsWebAuthn } from '@simplewebauthn/browser'
import type { SecondFactorChallenge, SecondFactorMethod } from '@contract/two-factor'
import { SecondFactorCodeInput } from '@/components/second-factor-code-input'
import { Button } from '@/components/ui/button'
import { api, isApiError } from '@/lib/api-client'
import { passkeyAssertion } from '@/lib/webauthn'
import type { UserProfile } from '@/stores/auth-store'

const KEY = 'pending_2fa'
const PENDING_MS = 5 * 60 * 1000

export const isSecondFactorChallenge = (data: unknown): data is SecondFactorChallenge =>
  typeof data === 'object' && data !== null && (data as { require_2fa?: unknown }).require_2fa === true

/** Remembers the pending sign-in and its factors (a server without `methods` means TOTP). */
export function markSecondFactorPending(methods: SecondFactorMethod[] | undefined) {
  sessionStorage.setItem(KEY, JSON.stringify({ until: Date.now() + PENDING_MS, methods: methods?.length ? methods : ['totp'] }))
}

export function clearSecondFactorPending() {
  sessionStorage.removeItem(KEY)
}

function pendingState(): { until: number; methods: SecondFactorMethod[] } | undefined {
  try {
    const parsed = JSON.parse(sessionStorage.getItem(KEY) ?? 'null') as { until?: unknown; methods?: unknown } | null
    if (!parsed || typeof parsed.until !== 'number' || parsed.until <= Date.now() || !Array.isArray(parsed.methods)) return undefined
    return { until: parsed.until, methods: parsed.methods.filter((m): m is SecondFactorMethod => m === 'totp' || m === 'passkey') }
  } catch {
    return undefined
  }
}

export const secondFactorPending = () => pendingState() !== undefined

export function SecondFactorForm({ onDone, onCancel }: { onDone: (user: UserProfile) => void; onCancel: () => void }) {
  const { t } = useTranslation('auth')
  const [code, setCode] = useState('')
  const [methods] = useState(() => pendingState()?.methods ?? ['totp'])
  const totp = methods.includes('totp')
  const passkey = methods.includes('passkey') && browserSupportsWebAuthn()
  const settle = {
    onSuccess: (user: UserProfile) => {
      clearSecondFactorPending()
      onDone(user)
    },
    onError: (err: unknown) => {
      setCode('')
      // Expired, or five wrong answers: the pending sign-in is gone; start again with the password.
      if (isApiError(err) && (err.status === 401 || err.status === 429)) {
        clearSecondFactorPending()
        onCancel()
      }
    },
  }
  const verify = useMutation({ mutationFn: (value: string) => api.post<UserProfile>('/api/user/login/2fa', { code: value }), ...settle })
  const withPasskey = useMutation({
    mutationFn: async () => {
      const response = await passkeyAssertion('/api/user/login/2fa/passkey/options', t('passkey.cancelled'))
      return api.post<UserProfile>('/api/user/login/2fa/passkey', { response })
    },
    ...settle,
  })
  const busy = verify.isPending || withPasskey.isPending
  const prompt = totp && passkey ? t('twoFactor.promptBoth') : passkey ? t('twoFactor.promptPasskey') : t('twoFactor.prompt')

  return (
    <div className="grid gap-4" data-testid="login-2fa">
      <p className="text-sm text-muted-foreground">{prompt}</p>
      {passkey && (
        <Button type="button" variant={totp ? 'outline' : 'default'} className="w-full" onClick={() => withPasskey.mutate()} disabled={busy} data-testid="login-2fa-passkey">
          {withPasskey.isPending ? <Loader2 className="animate-spin" /> : <Fingerprint />}
          {t('twoFactor.usePasskey')}
        </Button>
      )}
      {passkey && totp && (
        <div className="flex items-center gap-3 text-xs text-muted-foreground">
          <span className="h-px flex-1 bg-border" />
          {t('twoFactor.or')}
          <span className="h-px flex-1 bg-border" />
        </div>
      )}
      {totp && (
        <form
          className="grid gap-4"
          noValidate
          onSubmit={(e) => {
            e.preventDefault()
            if (code.length >= 6) verify.mutate(code)
          }}
        >
          <SecondFactorCodeInput id="login-2fa-code" label={t('twoFactor.code')} value={code} onChange={setCode} hint={t('twoFactor.backupHint')} autoFocus={!passkey} />
          <Button type="submit" className="w-full" disabled={busy || code.length < 6} data-testid="login-2fa-submit">
            {verify.isPending ? <Loader2 className="animate-spin" /> : <ShieldCheck />}
            {t('twoFactor.verify')}
          </Button>
        </form>
      )}
      <Button
        type="button"
        variant="ghost"
        className="w-full"
        onClick={() => {
          clearSecondFactorPending()
          onCancel()
        }}
      >
        {t('twoFactor.back')}
      </Button>
    </div>
  )
}
