/**
 * Binding Telegram from the profile: asks for a one-time code, then offers the bot's deep link
 * (`t.me/<bot>?start=<code>`, binds on Start) and the `/bind <code>` command to send by hand. While
 * open it re-reads the profile every few seconds and closes itself once the chat is bound.
 */
import { useEffect } from 'react'
import { useQuery } from '@tanstack/react-query'
import { Copy, ExternalLink, Loader2, RefreshCw } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { copyText } from '@/lib/clipboard'
import { notify } from '@/lib/notify'
import { selfQueryOptions } from '@/features/auth/api'
import { useTelegramBindCode } from '../api'

interface Props {
  open: boolean
  onOpenChange: (open: boolean) => void
}

export function TelegramBindDialog({ open, onOpenChange }: Props) {
  const { t } = useTranslation('profile')
  const issue = useTelegramBindCode()
  const { mutate } = issue
  const self = useQuery({ ...selfQueryOptions, refetchInterval: open && issue.data ? 3000 : false })
  const bound = Boolean(self.data?.telegram_id && Number(self.data.telegram_id) !== 0)

  useEffect(() => {
    if (open) mutate()
  }, [open, mutate])
  useEffect(() => {
    if (open && bound && issue.data) {
      notify.success(t('telegram.bound'))
      onOpenChange(false)
    }
  }, [open, bound, issue.data, onOpenChange, t])

  const data = issue.data
  const command = data ? `/bind ${data.code}` : ''
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent data-testid="telegram-bind-dialog">
        <DialogHeader>
          <DialogTitle>{t('telegram.title')}</DialogTitle>
          <DialogDescription>{t('telegram.description')}</DialogDescription>
        </DialogHeader>
        {!data ? (
          <div className="flex h-32 items-center justify-center text-muted-foreground">{issue.isError ? t('telegram.failed') : <Loader2 className="animate-spin" />}</div>
        ) : (
          <div className="grid gap-4 text-sm">
            <div className="grid gap-2">
              <p className="font-medium">{t('telegram.step1')}</p>
              <Button asChild variant="default" className="w-full sm:w-fit">
                <a href={data.link} target="_blank" rel="noreferrer" data-testid="telegram-deep-link">
                  <ExternalLink />
                  {t('telegram.open', { bot: data.bot_username })}
                </a>
              </Button>
            </div>
            <div className="grid gap-2">
              <p className="font-medium">{t('telegram.step2', { bot: data.bot_username })}</p>
              <div className="flex items-center gap-2">
                <code className="min-w-0 flex-1 truncate rounded-md border bg-muted px-3 py-2 font-mono text-xs" data-testid="telegram-bind-command">
                  {command}
                </code>
                <Button type="button" variant="outline" size="icon" onClick={() => copyText(command)} aria-label={t('telegram.copy')}>
                  <Copy />
                </Button>
              </div>
              <p className="text-xs text-muted-foreground">{t('telegram.expires', { minutes: Math.round(data.expires_in / 60) })}</p>
            </div>
          </div>
        )}
        <DialogFooter>
          <Button variant="outline" onClick={() => mutate()} disabled={issue.isPending}>
            {issue.isPending ? <Loader2 className="animate-spin" /> : <RefreshCw />}
            {t('telegram.newCode')}
          </Button>
          <Button onClick={() => onOpenChange(false)}>{t('telegram.done')}</Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  )
}
