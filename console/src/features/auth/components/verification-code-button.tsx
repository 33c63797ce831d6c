/** 'Send code' for the email in the register form (GET /api/verification), then a 60 s resend countdown. */
import type { UseFormReturn } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { useCountdown } from '@/hooks/use-countdown'
import { useSendVerificationCode } from '../api'
import type { RegisterValues } from '../schema'

export const RESEND_SECONDS = 60

export function VerificationCodeButton({ form }: { form: UseFormReturn<RegisterValues> }) {
  const { t } = useTranslation('auth')
  const send = useSendVerificationCode()
  const countdown = useCountdown()

  const onClick = async () => {
    if (!(await form.trigger('email'))) return
    send.mutate(form.getValues('email'), { onSuccess: () => countdown.start(RESEND_SECONDS) })
  }

  return (
    <Button
      type="button"
      variant="outline"
      className="w-32 shrink-0"
      disabled={send.isPending || countdown.running}
      onClick={onClick}
    >
      {countdown.running ? t('register.resendIn', { seconds: countdown.remaining }) : t('register.sendCode')}
    </Button>
  )
}
