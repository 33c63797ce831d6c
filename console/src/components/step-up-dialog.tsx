/**
 * The step-up dialog: registered as lib/step-up.ts's prompt, it opens when a sensitive action was
 * refused with `step_up_required`, asks for the password (or a second-factor code, when the account
 * has one), confirms it with POST /api/user/step_up and lets the refused call run again. An account
 * without a password is told to sign in again instead (a fresh sign-in counts as a step-up).
 */
import { useEffect, useState, type FormEvent } from 'react'
import { Loader2, ShieldCheck } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import type { StepUpRequiredData } from '@contract/sessions'
import { PasswordInput } from '@/components/password-input'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { api, isApiError } from '@/lib/api-client'
import { STEP_UP_PATH, setStepUpPrompt } from '@/lib/step-up'
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

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    setPending(true)
    setError('')
    try {
      await api.post(STEP_UP_PATH, useCode ? { code: secret } : { password: secret })
      close(true)
    } catch (err) {
      setError(isApiError(err) && err.status === 400 ? t(useCode ? 'stepUp.wrongCode' : 'stepUp.wrongPassword') : err instanceof Error ? err.message : String(err))
    } finally {
      setPending(false)
    }
  }

  const reason = ask?.data.reason ?? 'password'
  const canCode = (ask?.data.factors.length ?? 0) > 0
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
            <Label htmlFor="step-up-secret">{codeMode ? t('stepUp.code') : t('stepUp.password')}</Label>
            {codeMode ? (
              <Input id="step-up-secret" value={secret} onChange={(e) => setSecret(e.target.value)} autoFocus autoComplete="one-time-code" inputMode="numeric" />
            ) : (
              <PasswordInput id="step-up-secret" value={secret} onChange={(e) => setSecret(e.target.value)} autoFocus autoComplete="current-password" />
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
            reason === 'no_password' && (
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
