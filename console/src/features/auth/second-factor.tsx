/**
 * The second step of signing in (issue 36). When the password or an external sign-in answers
 * `{require_2fa: true}`, the server holds a pending sign-in for five minutes (an HttpOnly cookie);
 * this browser remembers that for as long in sessionStorage, and /login shows the code prompt
 * (a TOTP code or a backup code, POST /api/user/login/2fa) instead of the password form.
 */
import { useState } from 'react'
import { useMutation } from '@tanstack/react-query'
import { Loader2, ShieldCheck } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { api, isApiError } from '@/lib/api-client'
import type { UserProfile } from '@/stores/auth-store'

export interface SecondFactorChallenge {
  require_2fa: true
}

const KEY = 'pending_2fa_until'
const PENDING_MS = 5 * 60 * 1000

export const isSecondFactorChallenge = (data: unknown): data is SecondFactorChallenge =>
  typeof data === 'object' && data !== null && (data as { require_2fa?: unknown }).require_2fa === true

export function markSecondFactorPending() {
  sessionStorage.setItem(KEY, String(Date.now() + PENDING_MS))
}

export function clearSecondFactorPending() {
  sessionStorage.removeItem(KEY)
}

export const secondFactorPending = () => Number(sessionStorage.getItem(KEY) ?? 0) > Date.now()

export function SecondFactorForm({ onDone, onCancel }: { onDone: (user: UserProfile) => void; onCancel: () => void }) {
  const { t } = useTranslation('auth')
  const [code, setCode] = useState('')
  const verify = useMutation({
    mutationFn: (value: string) => api.post<UserProfile>('/api/user/login/2fa', { code: value }),
    onSuccess: (user) => {
      clearSecondFactorPending()
      onDone(user)
    },
    onError: (err) => {
      setCode('')
      // Expired, or five wrong codes: the pending sign-in is gone; start again with the password.
      if (isApiError(err) && (err.status === 401 || err.status === 429)) {
        clearSecondFactorPending()
        onCancel()
      }
    },
  })
  return (
    <form
      className="grid gap-4"
      noValidate
      onSubmit={(e) => {
        e.preventDefault()
        if (code.length >= 6) verify.mutate(code)
      }}
    >
      <p className="text-sm text-muted-foreground">{t('twoFactor.prompt')}</p>
      <div className="grid gap-1.5">
        <Label htmlFor="login-2fa-code">{t('twoFactor.code')}</Label>
        <Input
          id="login-2fa-code"
          value={code}
          onChange={(e) => setCode(e.target.value.trim())}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={16}
          placeholder="123456"
          className="font-mono tracking-widest"
          autoFocus
          data-testid="login-2fa-code"
        />
        <p className="text-xs text-muted-foreground">{t('twoFactor.backupHint')}</p>
      </div>
      <Button type="submit" className="w-full" disabled={verify.isPending || code.length < 6} data-testid="login-2fa-submit">
        {verify.isPending ? <Loader2 className="animate-spin" /> : <ShieldCheck />}
        {t('twoFactor.verify')}
      </Button>
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
    </form>
  )
}
