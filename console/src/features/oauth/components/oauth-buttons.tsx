/**
 * The external sign-in buttons of the login and register pages: one per method enabled in the
 * site info (GitHub, OIDC, Lark redirect to the provider; WeChat opens the code dialog).
 */
import { useState } from 'react'
import { Loader2 } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { Separator } from '@/components/ui/separator'
import { cn } from '@/lib/utils'
import { useSiteInfo } from '@/features/site/api'
import { useStartOAuth } from '../api'
import { enabledMethods } from '../providers'
import { BINDING_ICONS } from './provider-icons'
import { WeChatCodeDialog } from './wechat-code-dialog'

interface OAuthButtonsProps {
  /** Text of the line above the buttons (e.g. "or continue with"); none when omitted. */
  divider?: string
}

export function OAuthButtons({ divider }: OAuthButtonsProps) {
  const { t } = useTranslation('oauth')
  const site = useSiteInfo()
  const methods = enabledMethods(site)
  const start = useStartOAuth()
  const [wechatOpen, setWechatOpen] = useState(false)
  if (methods.length === 0) return null
  // After a successful start the browser is already leaving for the provider.
  const busy = start.isPending || start.isSuccess

  return (
    <div className="grid gap-4" data-testid="oauth-buttons">
      {divider && (
        <div className="flex items-center gap-3 text-xs text-muted-foreground">
          <Separator className="flex-1" />
          <span className="shrink-0">{divider}</span>
          <Separator className="flex-1" />
        </div>
      )}
      <div className="grid grid-cols-2 gap-2">
        {methods.map((method, i) => {
          const Icon = BINDING_ICONS[method]
          const name = t(`providers.${method}`)
          return (
            <Button
              key={method}
              type="button"
              variant="outline"
              className={cn(i === methods.length - 1 && i % 2 === 0 && 'col-span-2')}
              disabled={busy}
              aria-label={t('signInWith', { provider: name })}
              data-testid={`oauth-${method}`}
              onClick={() => (method === 'wechat' ? setWechatOpen(true) : start.mutate(method))}
            >
              {busy && start.variables === method ? <Loader2 className="animate-spin" /> : <Icon />}
              {name}
            </Button>
          )
        })}
      </div>
      {methods.includes('wechat') && <WeChatCodeDialog mode="login" open={wechatOpen} onOpenChange={setWechatOpen} />}
    </div>
  )
}
