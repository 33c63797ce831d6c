/**
 * The step-up dialog: registered as lib/step-up.ts's prompt, it opens when a sensitive action was
 * refused with `step_up_required`, asks for the password (or a second-factor code, or a passkey,
 * when the account has one), confirms it with POST /api/user/step_up and lets the refused call run
 * again. An account without a password or second factor is told to sign in again instead (a fresh
 * sign-in counts as a step-up).
 */
import { useEffect, useState, type FormEvent } from 'react'
import { Fingerprint, Loader2, ShieldCheck } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import type { StepUpRequiredData } from '@contract/sessions'
import { PasswordInput } from '@/components/password-input'
import { SecondFactorCodeInput } from '@/components/second-factor-code-input'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Label } from '@/components/ui/label'
import { browserSupportsWebAuthn } from '@simplewebauthn/browser'
import { api, isApiError } from '@/lib/api-client'
import { STEP_UP_PATH, setStepUpPrompt } from '@/lib/step-up'
import { passkeyAssertion } from '@/lib/webauthn'
import { withBase } from '@/lib/base-path'

interface Ask {
  data: StepUpRequiredData
  resolve: (confirmed: boolean) => void
}

export function StepUpDialog() {
  const { t } = useTranslation()
  const [ask, setAsk] = useState<Ask | null>(null)
  const [secret, setSecret] = useState('')
  const [useCode, setUseCode] = useState(false)
  const [error, setError] = useState('')
  const [pending, setPending] = useState(false)

  useEffect(() => {
    setStepUpPrompt((data) => new Promise<boolean>((resolve) => setAsk({ data, resolve })))
    return () => setStepUpPrompt(undefined)
  }, [])

  const close = (confirmed: boolean) => {
    ask?.resolve(confirmed)
    setAsk(null)
    setSecret('')
    setError('')
    setUseCode(false)
  }

  const confirm = async (body: () => Promise<Record<string, unknown>>, wrong: string) => {
    setPending(true)
    setError('')
    try {
      await api.post(STEP_UP_PATH, await body())
      close(true)
    } catch (err) {
      setError(isApiError(err) && err.status === 400 ? t(wrong) : err instanceof Error ? err.message : String(err))
    } finally {
      setPending(false)
    }
  }
  const submit = (e: FormEvent) => {
    e.preventDefault()
    void confirm(async () => (codeMode ? { code: secret } : { password: secret }), codeMode ? 'stepUp.wrongCode' : 'stepUp.wrongPassword')
  }
  const confirmWithPasskey = () =>
    confirm(async () => ({ passkey: await passkeyAssertion('/api/user/step_up/passkey/options', t('stepUp.passkeyFailed')) }), 'stepUp.passkeyFailed')

  const reason = ask?.data.reason ?? 'password'
  const factors = ask?.data.factors ?? []
  const canCode = factors.some((f) => f !== 'passkey')
  const canPasskey = factors.includes('passkey') && reason !== 'session_required' && browserSupportsWebAuthn()
  const askSecret = reason === 'password' || (reason === 'no_password' && canCode)
  const codeMode = useCode || (reason === 'no_password' && canCode)

  return (
    <Dialog open={ask !== null} onOpenChange={(open) => !open && close(false)}>
      <DialogContent data-testid="step-up-dialog" className="sm:max-w-md">
        <DialogHeader>
          <DialogTitle className="flex items-center gap-2">
            <ShieldCheck className="size-5 text-primary" />
            {t('stepUp.title')}
          </DialogTitle>
          <DialogDescription>{t(`stepUp.reason.${reason}`)}</DialogDescription>
        </DialogHeader>
        {askSecret ? (
          <form id="step-up-form" onSubmit={submit} className="grid gap-2">
            {codeMode ? (
              <SecondFactorCodeInput id="step-up-secret" label={t('stepUp.code')} value={secret} onChange={setSecret} autoFocus />
            ) : (
              <>
                <Label htmlFor="step-up-secret">{t('stepUp.password')}</Label>
                <PasswordInput id="step-up-secret" value={secret} onChange={(e) => setSecret(e.target.value)} autoFocus autoComplete="current-password" />
              </>
            )}
            {error && (
              <p className="text-sm text-destructive" role="alert">
                {error}
              </p>
            )}
            <p className="text-xs text-muted-foreground">{t('stepUp.window')}</p>
            {canCode && reason === 'password' && (
              <button type="button" className="justify-self-start text-sm text-primary underline-offset-4 hover:underline" onClick={() => setUseCode((v) => !v)}>
                {useCode ? t('stepUp.usePassword') : t('stepUp.useCode')}
              </button>
            )}
          </form>
        ) : null}
        {canPasskey && (
          <Button type="button" variant="outline" onClick={() => void confirmWithPasskey()} disabled={pending} data-testid="step-up-passkey">
            <Fingerprint />
            {t('stepUp.usePasskey')}
          </Button>
        )}
        {canPasskey && !askSecret && error && (
          <p className="text-sm text-destructive" role="alert">
            {error}
          </p>
        )}
        <DialogFooter>
          <Button variant="outline" onClick={() => close(false)}>
            {t('stepUp.cancel')}
          </Button>
          {askSecret ? (
            <Button type="submit" form="step-up-form" disabled={pending || secret === ''} data-testid="step-up-confirm">
              {pending && <Loader2 className="animate-spin" />}
              {t('stepUp.confirm')}
            </Button>
          ) : (
            reason === 'no_password' &&
            !canPasskey && (
              <Button asChild>
                <a href={withBase('/login')}>{t('stepUp.signInAgain')}</a>
              </Button>
            )
          )}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  )
}
