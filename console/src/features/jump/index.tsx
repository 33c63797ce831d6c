/**
 * /jump (the redirect page): opens a chat client for an API key. `url` is a chat-link
 * template and the key comes in the fragment (`#key=…`, never sent to a server; it is removed from
 * the address bar at once); {key} and {server} (the site's server address, or this origin) are
 * filled in URL-encoded and a web client is opened with location.replace, while an app link (a
 * custom scheme) waits for the user to confirm. Only templates configured by the administrator are
 * opened (no open redirect), and only http(s) and custom app schemes are followed; anything else
 * (javascript:, data:, …) is refused with a message.
 */
import { useEffect, useMemo, useState } from 'react'
import { Link, getRouteApi } from '@tanstack/react-router'
import { AppWindow, ArrowLeft, ExternalLink, Loader2, ShieldAlert } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { useSiteInfo } from '@/features/site/api'
import { checkTarget, fillTemplate, isConfiguredTemplate, keyFromFragment, type TargetCheck } from './chat-links'
import { siteUrl } from '@/lib/base-path'

const route = getRouteApi('/_public/jump')

export function Jump() {
  const { t } = useTranslation('jump')
  const { url } = route.useSearch()
  const [key] = useState(() => keyFromFragment(window.location.hash))
  const { server_address, chat_links, chat_link } = useSiteInfo()
  const server = (server_address || siteUrl()).replace(/\/+$/, '')
  const target = useMemo<TargetCheck>(
    () => (url && !isConfiguredTemplate(url, chat_links, chat_link) ? { ok: false, reason: 'unknown' } : checkTarget(fillTemplate(url ?? '', key ?? '', server))),
    [url, key, server, chat_links, chat_link]
  )

  // The key leaves the address bar (and this page's history entry) at once.
  useEffect(() => {
    if (window.location.hash) window.history.replaceState(window.history.state, '', window.location.pathname + window.location.search)
  }, [])

  // Web clients open at once; an app link asks first (it hands the key to another program).
  useEffect(() => {
    if (target.ok && !target.app) window.location.replace(target.url)
  }, [target])

  return (
    <div className="mx-auto flex w-full max-w-lg flex-1 items-center px-4 py-12">
      <Card className="w-full" data-testid="jump-card">
        {target.ok && target.app ? (
          <>
            <CardHeader>
              <CardTitle className="flex items-center gap-2">
                <AppWindow className="size-5 text-primary" />
                {t('appConfirmTitle')}
              </CardTitle>
              <CardDescription className="break-words">{t('appConfirm', { scheme: new URL(target.url).protocol.replace(/:$/, '') })}</CardDescription>
            </CardHeader>
            <CardContent className="flex flex-wrap gap-2">
              <Button asChild data-testid="jump-open-app">
                <a href={target.url} rel="noreferrer">
                  <ExternalLink />
                  {t('openApp')}
                </a>
              </Button>
              <Button asChild variant="outline">
                <Link to="/panel/token">
                  <ArrowLeft />
                  {t('back')}
                </Link>
              </Button>
            </CardContent>
          </>
        ) : target.ok ? (
          <>
            <CardHeader>
              <CardTitle className="flex items-center gap-2">
                <Loader2 className="size-5 animate-spin text-primary" />
                {t('opening')}
              </CardTitle>
              <CardDescription>{t('webHint')}</CardDescription>
            </CardHeader>
            <CardContent>
              <Button asChild variant="outline">
                <a href={target.url} rel="noreferrer">
                  <ExternalLink />
                  {t('openManually')}
                </a>
              </Button>
            </CardContent>
          </>
        ) : (
          <CardContent>
            <Alert variant="destructive" data-testid="jump-refused">
              <ShieldAlert />
              <AlertTitle>{target.reason === 'scheme' || target.reason === 'unknown' ? t('refusedTitle') : t('invalidTitle')}</AlertTitle>
              <AlertDescription>{target.reason === 'scheme' ? t('refused') : target.reason === 'unknown' ? t('unknown') : t('invalid')}</AlertDescription>
            </Alert>
            <Button asChild variant="outline" className="mt-4">
              <Link to="/panel/token">
                <ArrowLeft />
                {t('back')}
              </Link>
            </Button>
          </CardContent>
        )}
      </Card>
    </div>
  )
}
