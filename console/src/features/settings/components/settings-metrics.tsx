/**
 * System → Prometheus metrics: the write-only MetricsToken of GET /metrics. "Generate" makes a
 * random token in the browser, saves it and shows it once (with a copy button and a ready scrape
 * command); the server never sends it back, so afterwards the card only says whether one is set.
 * "Turn off" (confirmed) clears it, and /metrics answers 404 again.
 */
import { useState } from 'react'
import { Copy, KeyRound, PowerOff } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Input } from '@/components/ui/input'
import { ConfirmDialog } from '@/components/confirm-dialog'
import { copyText } from '@/lib/clipboard'
import { type OptionMap, useSaveOptions } from '../api'
import { isConfigured } from '../values'

/** 32 random bytes, base64url: the bearer token Prometheus sends. */
function newToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32))
  return `mt_${btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '')}`
}

export function MetricsSection({ options }: { options: OptionMap }) {
  const { t } = useTranslation('settings')
  const save = useSaveOptions()
  const [shown, setShown] = useState<string>()
  const [confirming, setConfirming] = useState(false)
  const configured = isConfigured(options, 'MetricsToken')
  const url = new URL('metrics', document.baseURI).href
  const generate = () => {
    const token = newToken()
    save.mutate({ MetricsToken: token }, { onSuccess: () => setShown(token) })
  }
  return (
    <Card id="metrics" data-testid="settings-metrics" className="scroll-mt-24 gap-5">
      <CardHeader className="px-4 sm:px-6">
        <div className="flex items-center justify-between gap-2">
          <CardTitle className="text-base">{t('sections.metrics.title')}</CardTitle>
          <Badge variant={configured ? 'success' : 'outline'} data-testid="metrics-token-status">
            {configured ? t('secret.configured') : t('secret.notSet')}
          </Badge>
        </div>
        <CardDescription>{t('sections.metrics.description')}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4 px-4 sm:px-6">
        {shown && (
          <div className="grid gap-2 rounded-md border border-dashed p-3" data-testid="metrics-token-once">
            <p className="text-sm font-medium">{t('metrics.shownOnce')}</p>
            <div className="flex gap-2">
              <Input readOnly value={shown} className="min-w-0 flex-1 font-mono text-xs" aria-label={t('sections.metrics.title')} data-testid="metrics-token-value" />
              <Button type="button" variant="outline" size="icon" onClick={() => copyText(shown)} aria-label={t('metrics.copy')}>
                <Copy />
              </Button>
            </div>
            <code className="block overflow-x-auto rounded bg-muted px-2 py-1 text-xs whitespace-pre">{`curl -H "Authorization: Bearer ${shown}" ${url}`}</code>
          </div>
        )}
        <p className="text-sm text-muted-foreground">{t('metrics.hint', { url })}</p>
        <div className="flex flex-wrap justify-end gap-2">
          {configured && (
            <Button type="button" variant="outline" onClick={() => setConfirming(true)} data-testid="metrics-token-off">
              <PowerOff />
              {t('metrics.turnOff')}
            </Button>
          )}
          <Button type="button" onClick={generate} disabled={save.isPending} data-testid="metrics-token-generate">
            <KeyRound />
            {configured ? t('metrics.regenerate') : t('metrics.generate')}
          </Button>
        </div>
        <ConfirmDialog
          open={confirming}
          onOpenChange={setConfirming}
          title={t('metrics.turnOffTitle')}
          description={t('metrics.turnOffDescription')}
          confirmText={t('metrics.turnOff')}
          destructive
          pending={save.isPending}
          onConfirm={() =>
            save.mutate(
              { MetricsToken: '' },
              {
                onSettled: () => {
                  setConfirming(false)
                  setShown(undefined)
                },
              }
            )
          }
        />
      </CardContent>
    </Card>
  )
}
