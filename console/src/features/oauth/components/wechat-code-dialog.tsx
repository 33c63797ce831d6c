/**
 * WeChat with a verification code: the official account's QR code and how to get
 * a code (valid 3 minutes), then the code → GET /api/oauth/wechat (login) or, from the profile,
 * /api/oauth/wechat/bind (binding). A login for another account than the signed-in one asks first.
 */
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { Link2, Loader2, LogIn } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Form } from '@/components/ui/form'
import { InputField } from '@/components/form-fields'
import { applyFieldErrors } from '@/lib/handle-error'
import { useSiteInfo } from '@/features/site/api'
import type { PendingSwitch } from '@contract/oauth'
import { useWeChatCode } from '../api'
import { wechatCodeSchema, type WeChatCodeValues } from '../schema'
import { WeChatIcon } from './provider-icons'
import { SwitchAccountDialog } from './switch-account-dialog'

interface WeChatCodeDialogProps {
  mode: 'login' | 'bind'
  open: boolean
  onOpenChange: (open: boolean) => void
}

export function WeChatCodeDialog({ mode, open, onOpenChange }: WeChatCodeDialogProps) {
  const { t } = useTranslation('oauth')
  const site = useSiteInfo()
  const [pendingSwitch, setPendingSwitch] = useState<PendingSwitch>()
  const wechat = useWeChatCode(mode, (pending) => {
    onOpenChange(false)
    setPendingSwitch(pending)
  })
  const form = useForm<WeChatCodeValues>({ resolver: zodResolver(wechatCodeSchema), defaultValues: { code: '' } })

  const onSubmit = ({ code }: WeChatCodeValues) =>
    wechat.mutate(code, {
      onSuccess: () => {
        form.reset()
        onOpenChange(false)
      },
      onError: (err) => applyFieldErrors(form, err),
    })

  return (
    <>
      <SwitchAccountDialog pending={pendingSwitch} onStay={() => setPendingSwitch(undefined)} />
      <Dialog open={open} onOpenChange={(o) => !wechat.isPending && onOpenChange(o)}>
        <DialogContent className="sm:max-w-sm" data-testid="wechat-dialog">
          <DialogHeader>
            <DialogTitle className="flex items-center justify-center gap-2 sm:justify-start">
              <WeChatIcon className="size-5" />
              {mode === 'bind' ? t('wechat.bindTitle') : t('wechat.title')}
            </DialogTitle>
            <DialogDescription>{t('wechat.hint')}</DialogDescription>
          </DialogHeader>
          {site.wechat_qrcode && (
            <img src={site.wechat_qrcode} alt={t('wechat.qrAlt')} className="mx-auto size-44 rounded-lg border bg-white object-contain p-2" data-testid="wechat-qrcode" />
          )}
          <Form {...form}>
            <form id="wechat-code-form" onSubmit={form.handleSubmit(onSubmit)} noValidate>
              <InputField control={form.control} name="code" label={t('wechat.code')} description={t('wechat.codeHint')} autoComplete="one-time-code" autoFocus />
            </form>
          </Form>
          <DialogFooter>
            <Button type="submit" form="wechat-code-form" disabled={wechat.isPending} className="w-full sm:w-auto">
              {wechat.isPending ? <Loader2 className="animate-spin" /> : mode === 'bind' ? <Link2 /> : <LogIn />}
              {mode === 'bind' ? t('wechat.bindSubmit') : t('wechat.submit')}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </>
  )
}
