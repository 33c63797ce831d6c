/** Default landing section of the home page (shown while no home content is configured). */
import { Link } from '@tanstack/react-router'
import { ArrowRight, Boxes, Gauge, LayoutDashboard, PlugZap } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { useSiteInfo } from '@/features/site/api'
import { useAuthUser } from '@/stores/auth-store'
import { siteUrl } from '@/lib/base-path'

const FEATURES = [
  { key: 'openai', icon: PlugZap },
  { key: 'suppliers', icon: Boxes },
  { key: 'quota', icon: Gauge },
  { key: 'console', icon: LayoutDashboard },
] as const

export function Landing() {
  const { t } = useTranslation('home')
  const { system_name, server_address } = useSiteInfo()
  const user = useAuthUser()
  const origin = (server_address || siteUrl()).replace(/\/$/, '')
  return (
    <div className="relative overflow-hidden">
      <div aria-hidden className="pointer-events-none absolute inset-x-0 -top-40 -z-10 flex justify-center">
        <div className="h-[28rem] w-[56rem] rounded-full bg-gradient-to-tr from-primary/25 via-primary/10 to-transparent blur-3xl" />
      </div>
      <section className="mx-auto flex max-w-4xl flex-col items-center px-4 pt-16 pb-12 text-center sm:pt-24">
        <Badge variant="outline" className="mb-6 bg-background/60 px-3 py-1 text-xs font-normal">
          {t('landing.badge')}
        </Badge>
        <h1 className="text-4xl font-bold tracking-tight text-balance sm:text-5xl" data-testid="landing-title">
          {system_name}
        </h1>
        <p className="mt-5 max-w-2xl text-lg text-balance text-muted-foreground">{t('landing.subtitle')}</p>
        <div className="mt-8 flex w-full flex-col gap-3 sm:w-auto sm:flex-row">
          <Button asChild size="lg">
            <Link to={user ? '/panel' : '/login'}>
              {user ? t('landing.openConsole') : t('landing.getStarted')}
              <ArrowRight />
            </Link>
          </Button>
          <Button asChild size="lg" variant="outline">
            <Link to="/about">{t('landing.learnMore')}</Link>
          </Button>
        </div>
        <pre className="mt-10 w-full max-w-2xl overflow-x-auto rounded-xl border bg-card p-4 text-left font-mono text-xs leading-6 text-muted-foreground shadow-sm sm:text-sm">
          <span className="text-primary">curl</span> {origin}/v1/chat/completions \{'\n'}
          {'  '}-H <span className="text-foreground">"Authorization: Bearer sk-…"</span> \{'\n'}
          {'  '}-d <span className="text-foreground">{`'{"model":"gpt-4o-mini","messages":[{"role":"user","content":"Hi"}]}'`}</span>
        </pre>
      </section>
      <section className="mx-auto grid max-w-6xl gap-4 px-4 pb-20 sm:grid-cols-2 lg:grid-cols-4">
        {FEATURES.map(({ key, icon: Icon }) => (
          <Card key={key} className="gap-3 transition-shadow hover:shadow-md">
            <CardHeader>
              <span className="mb-2 flex size-10 items-center justify-center rounded-lg bg-primary/10 text-primary">
                <Icon className="size-5" />
              </span>
              <CardTitle>{t(`landing.features.${key}.title`)}</CardTitle>
            </CardHeader>
            <CardContent>
              <CardDescription className="leading-relaxed">{t(`landing.features.${key}.description`)}</CardDescription>
            </CardContent>
          </Card>
        ))}
      </section>
    </div>
  )
}
