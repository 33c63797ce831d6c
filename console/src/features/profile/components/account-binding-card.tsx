/**
 * Account binding (read-only for now): the email and third-party ids bound to this account as
 * returned by /api/user/self. Binding and unbinding flows arrive with the OAuth providers.
 */
import type { SVGProps } from 'react'
import { Bird, Mail, MessageCircle, Send, ShieldCheck } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import type { UserProfile } from '@/stores/auth-store'

/** lucide no longer ships brand marks; this is the GitHub mark. */
function Github(props: SVGProps<SVGSVGElement>) {
  return (
    <svg viewBox="0 0 24 24" fill="currentColor" aria-hidden {...props}>
      <path d="M12 .5a11.5 11.5 0 0 0-3.64 22.41c.58.1.79-.25.79-.56v-2c-3.2.7-3.88-1.36-3.88-1.36-.52-1.34-1.28-1.7-1.28-1.7-1.05-.71.08-.7.08-.7 1.16.08 1.77 1.19 1.77 1.19 1.03 1.77 2.7 1.26 3.36.96.1-.75.4-1.26.73-1.55-2.55-.29-5.24-1.28-5.24-5.68 0-1.25.45-2.28 1.18-3.08-.12-.29-.51-1.46.11-3.04 0 0 .97-.31 3.17 1.18a11 11 0 0 1 5.77 0c2.2-1.49 3.17-1.18 3.17-1.18.63 1.58.23 2.75.11 3.04.74.8 1.18 1.83 1.18 3.08 0 4.41-2.69 5.38-5.26 5.67.41.36.78 1.06.78 2.14v3.17c0 .31.21.67.8.56A11.5 11.5 0 0 0 12 .5Z" />
    </svg>
  )
}

export function AccountBindingCard({ user }: { user: UserProfile }) {
  const { t } = useTranslation('profile')
  const rows = [
    { key: 'email', icon: Mail, value: user.email },
    { key: 'github', icon: Github, value: user.github_id },
    { key: 'oidc', icon: ShieldCheck, value: user.oidc_id },
    { key: 'wechat', icon: MessageCircle, value: user.wechat_id },
    { key: 'lark', icon: Bird, value: user.lark_id },
    { key: 'telegram', icon: Send, value: user.telegram_id ? String(user.telegram_id) : '' },
  ] as const
  return (
    <Card className="gap-4">
      <CardHeader>
        <CardTitle>{t('binding.title')}</CardTitle>
        <CardDescription>{t('binding.description')}</CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="divide-y" data-testid="account-binding">
          {rows.map(({ key, icon: Icon, value }) => (
            <li key={key} className="flex items-center gap-3 py-2.5 text-sm first:pt-0 last:pb-0">
              <Icon className="size-4 shrink-0 text-muted-foreground" />
              <span className="w-20 shrink-0 text-muted-foreground">{t(`binding.${key}`)}</span>
              <span className={value ? 'min-w-0 truncate font-medium' : 'text-muted-foreground/70'}>
                {value || t('binding.notBound')}
              </span>
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  )
}
