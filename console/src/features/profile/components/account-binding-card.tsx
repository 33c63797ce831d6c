/**
 * Account binding: for email, GitHub, OIDC, WeChat and Lark whether one is bound
 * (ids from /api/user/self), with Bind — only for methods the site enables (email always) — and
 * Unbind after a confirmation. GitHub, OIDC and Lark bind through the provider's sign-in page
 * (the callback answers 'bind'); WeChat and email bind with a code in a dialog. Telegram is listed
 * only when the site has a bot; it binds with a one-time code sent to the bot (telegram-bind-dialog.tsx)
 * and, once bound, offers the switch for notices in the chat.
 */
import { useState } from 'react'
import { Link2, Loader2, Pencil, Unlink } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip'
import { ConfirmDialog } from '@/components/confirm-dialog'
import type { UserProfile } from '@/stores/auth-store'
import { useStartOAuth } from '@/features/oauth/api'
import { BINDING_ICONS } from '@/features/oauth/components/provider-icons'
import { WeChatCodeDialog } from '@/features/oauth/components/wechat-code-dialog'
import { methodEnabled, type BindingType } from '@/features/oauth/providers'
import { useSiteInfo } from '@/features/site/api'
import { useUnbind, useUnbindTelegram } from '../api'
import { EmailBindDialog } from './email-bind-dialog'
import { TelegramBindDialog } from './telegram-bind-dialog'
import { TelegramNotifySwitch } from './telegram-notify-switch'

type RowKey = BindingType | 'telegram'

interface Row {
  key: RowKey
  value: string
  /** Bind is offered (the method is enabled on this site). */
  canBind: boolean
}

export function AccountBindingCard({ user }: { user: UserProfile }) {
  const { t } = useTranslation('profile')
  const { t: to } = useTranslation('oauth')
  const site = useSiteInfo()
  const start = useStartOAuth()
  const unbind = useUnbind()
  const unbindTelegram = useUnbindTelegram()
  const [dialog, setDialog] = useState<'email' | 'wechat' | 'telegram' | null>(null)
  const [unbinding, setUnbinding] = useState<RowKey>('email')
  const [confirming, setConfirming] = useState(false)
  const leaving = start.isPending || start.isSuccess

  const rows: Row[] = [
    { key: 'email', value: user.email, canBind: true },
    { key: 'github', value: user.github_id, canBind: methodEnabled(site, 'github') },
    { key: 'oidc', value: user.oidc_id, canBind: methodEnabled(site, 'oidc') },
    { key: 'wechat', value: user.wechat_id, canBind: methodEnabled(site, 'wechat') },
    { key: 'lark', value: user.lark_id, canBind: methodEnabled(site, 'lark') },
  ]
  if (site.telegram_bot) rows.push({ key: 'telegram', value: Number(user.telegram_id) ? String(user.telegram_id) : '', canBind: true })

  const bind = (key: RowKey) => {
    if (key === 'email' || key === 'wechat' || key === 'telegram') setDialog(key)
    else start.mutate(key)
  }

  const label = (key: RowKey) => t(`binding.${key}`)

  return (
    <Card className="gap-4">
      <CardHeader>
        <CardTitle>{t('binding.title')}</CardTitle>
        <CardDescription>{t('binding.description')}</CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="divide-y" data-testid="account-binding">
          {rows.map(({ key, value, canBind }) => {
            const Icon = BINDING_ICONS[key]
            const bound = Boolean(value)
            return (
              <li key={key} className="flex items-center gap-3 py-3 first:pt-0 last:pb-0" data-testid={`binding-${key}`} data-bound={bound}>
                <span className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-muted">
                  <Icon className="size-4.5" />
                </span>
                {/* w-0: a long email or id truncates instead of widening the card on a phone. */}
                <div className="w-0 min-w-0 flex-1">
                  <p className="flex items-center gap-2 text-sm font-medium">
                    {label(key)}
                    {bound && (
                      <Badge variant="success" className="px-1.5 py-0 text-[11px]">
                        {to('binding.bound')}
                      </Badge>
                    )}
                  </p>
                  <p className={bound ? 'truncate text-xs text-muted-foreground' : 'text-xs text-muted-foreground/70'} title={value || undefined}>
                    {value || t('binding.notBound')}
                  </p>
                </div>
                <div className="flex shrink-0 gap-1">
                  {key === 'email' && bound && (
                    <Tooltip>
                      <TooltipTrigger asChild>
                        <Button size="icon" variant="ghost" className="size-8" onClick={() => setDialog('email')} aria-label={to('binding.changeEmail')} data-testid="change-email">
                          <Pencil />
                        </Button>
                      </TooltipTrigger>
                      <TooltipContent>{to('binding.changeEmail')}</TooltipContent>
                    </Tooltip>
                  )}
                  {bound ? (
                    <Button
                      size="sm"
                      variant="ghost"
                      className="text-muted-foreground hover:text-destructive"
                      onClick={() => {
                        setUnbinding(key)
                        setConfirming(true)
                      }}
                      aria-label={to('binding.unbindOne', { provider: label(key) })}
                      data-testid={`unbind-${key}`}
                    >
                      <Unlink />
                      {to('binding.unbind')}
                    </Button>
                  ) : (
                    canBind && (
                      <Button
                        size="sm"
                        variant="outline"
                        disabled={leaving}
                        onClick={() => bind(key)}
                        aria-label={to('binding.bindOne', { provider: label(key) })}
                        data-testid={`bind-${key}`}
                      >
                        {leaving && start.variables === key ? <Loader2 className="animate-spin" /> : <Link2 />}
                        {to('binding.bind')}
                      </Button>
                    )
                  )}
                </div>
              </li>
            )
          })}
        </ul>
        {site.telegram_bot && Number(user.telegram_id) !== 0 && <TelegramNotifySwitch />}
      </CardContent>
      <EmailBindDialog open={dialog === 'email'} onOpenChange={(open) => setDialog(open ? 'email' : null)} current={user.email} />
      {site.telegram_bot && <TelegramBindDialog open={dialog === 'telegram'} onOpenChange={(open) => setDialog(open ? 'telegram' : null)} />}
      {site.wechat_login && <WeChatCodeDialog mode="bind" open={dialog === 'wechat'} onOpenChange={(open) => setDialog(open ? 'wechat' : null)} />}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={to('binding.unbindTitle', { provider: label(unbinding) })}
        description={to('binding.unbindDescription', { provider: label(unbinding) })}
        confirmText={to('binding.unbind')}
        destructive
        pending={unbind.isPending || unbindTelegram.isPending}
        onConfirm={() =>
          unbinding === 'telegram'
            ? unbindTelegram.mutate(undefined, { onSettled: () => setConfirming(false) })
            : unbind.mutate(unbinding, { onSettled: () => setConfirming(false) })
        }
      />
    </Card>
  )
}
