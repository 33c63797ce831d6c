/**
 * 'Send code' next to an email field (GET /api/verification — for registration, or with
 * purpose=bind for the profile's email binding), then a 60 s resend countdown. When the site uses
 * Turnstile the call carries the widget's token, and the widget is reset afterwards.
 */
import type { Path, UseFormReturn } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { useCountdown } from '@/hooks/use-countdown'
import { useSendVerificationCode } from '../api'
import type { Turnstile } from '../use-turnstile'

export const RESEND_SECONDS = 60

interface VerificationCodeButtonProps<T extends { email: string }> {
  form: UseFormReturn<T>
  purpose?: 'register' | 'bind'
  turnstile?: Turnstile
}

export function VerificationCodeButton<T extends { email: string }>({ form, purpose = 'register', turnstile }: VerificationCodeButtonProps<T>) {
  const { t } = useTranslation('auth')
  const send = useSendVerificationCode()
  const countdown = useCountdown()

  const onClick = async () => {
    const field = 'email' as Path<T>
    if (!(await form.trigger(field))) return
    if (turnstile && !turnstile.check()) return
    send.mutate(
      { email: String(form.getValues(field)), purpose, turnstile: turnstile?.token },
      { onSuccess: () => countdown.start(RESEND_SECONDS), onSettled: () => turnstile?.token && turnstile.reset() }
    )
  }

  return (
    <Button type="button" variant="outline" className="w-32 shrink-0" disabled={send.isPending || countdown.running} onClick={onClick} data-testid="send-code">
      {countdown.running ? t('register.resendIn', { seconds: countdown.remaining }) : t('register.sendCode')}
    </Button>
  )
}
