/**
 * "Check updates": the admin keeps or edits the
 * price-list URL (default from GET /api/prices/updateService, the last one used is remembered),
 * the gateway fetches it, the differences are listed (new, changed, only here), and the list is
 * applied with "add new only" or — after a confirmation — "overwrite" (POST /api/prices/sync).
 * Locked prices are never touched; the server's counts are shown afterwards.
 */
import { useEffect, useMemo, useState } from 'react'
import { useMutation, useQuery } from '@tanstack/react-query'
import { CircleCheck, CloudDownload, Loader2, TriangleAlert } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs'
import { ConfirmDialog } from '@/components/confirm-dialog'
import { isApiError } from '@/lib/api-client'
import { errorMessage } from '@/lib/handle-error'
import { notify } from '@/lib/notify'
import type { PriceSyncMode, RemotePrice } from '@contract/pricing'
import { updateServiceQueryOptions, useSyncPrices, type Price, type SyncResult } from '../api'
import { InvalidListFormatError, InvalidListUrlError, diffPrices, fetchRemoteList, lastUpdateUrl, rememberUpdateUrl } from '../remote-list'
import { UpdatesAdded, UpdatesChanged, UpdatesLocalOnly } from './pricing-updates-lists'

interface Props {
  open: boolean
  onOpenChange: (open: boolean) => void
  prices: Price[]
}

export function PricingUpdatesDialog({ open, onOpenChange, prices }: Props) {
  const { t } = useTranslation('pricing')
  const { data: defaultUrl } = useQuery({ ...updateServiceQueryOptions, enabled: open })
  const [url, setUrl] = useState(() => lastUpdateUrl() ?? '')
  const [remote, setRemote] = useState<RemotePrice[] | null>(null)
  const [result, setResult] = useState<SyncResult | null>(null)
  const [confirmOverwrite, setConfirmOverwrite] = useState(false)
  const sync = useSyncPrices()

  useEffect(() => {
    if (!url && defaultUrl) setUrl(defaultUrl)
  }, [url, defaultUrl])

  const fetchList = useMutation({
    mutationFn: (target: string) => fetchRemoteList(target),
    meta: { silent: true },
    onMutate: () => {
      setRemote(null)
      setResult(null)
    },
    onSuccess: (list) => setRemote(list),
  })

  const diff = useMemo(() => (remote ? diffPrices(prices, remote) : null), [prices, remote])

  const onFetch = () => {
    const target = url.trim()
    rememberUpdateUrl(target)
    fetchList.mutate(target)
  }

  const apply = (mode: PriceSyncMode) => {
    if (!remote || !diff) {
      notify.warning(t('updates.fetchFirst'))
      return
    }
    if (mode === 'add' && diff.added.length === 0) {
      notify.info(t('updates.noNewModels'))
      return
    }
    if (mode === 'overwrite' && !confirmOverwrite) {
      setConfirmOverwrite(true)
      return
    }
    sync.mutate(
      { mode, list: remote },
      {
        onSuccess: (res) => setResult(res),
        onSettled: () => setConfirmOverwrite(false),
      }
    )
  }

  const error = fetchList.error
  // The server explains a list it could not fetch (502) or a refused address (400 naming the url
  // field); any other 400 is its 'Data format is incorrect: …', said in the user's language.
  const notAList = error instanceof InvalidListFormatError || (isApiError(error) && error.status === 400 && !error.fields.url)
  const errorText =
    error instanceof InvalidListUrlError
      ? t('updates.urlInvalid')
      : notAList
        ? t('updates.formatInvalid')
        : isApiError(error) && (error.code === 'validation_failed' || error.status === 502)
          ? error.message
          : error
            ? errorMessage(error)
            : ''
  const unlockedChanged = diff?.changed.filter((c) => !c.local.locked).length ?? 0
  const unlockedLocalOnly = diff?.localOnly.filter((p) => !p.locked).length ?? 0
  const locked = prices.filter((p) => p.locked).length

  return (
    <>
      <Dialog open={open} onOpenChange={onOpenChange}>
        <DialogContent className="sm:max-w-3xl" data-testid="updates-dialog">
          <DialogHeader>
            <DialogTitle>{t('updates.title')}</DialogTitle>
            <DialogDescription>{t('updates.description')}</DialogDescription>
          </DialogHeader>
          <div className="grid gap-2">
            <Label htmlFor="price-list-url">{t('updates.url')}</Label>
            <div className="flex flex-col gap-2 sm:flex-row">
              <Input
                id="price-list-url"
                value={url}
                onChange={(e) => setUrl(e.target.value)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter' && url.trim()) onFetch()
                }}
                placeholder="https://…/prices.json"
                spellCheck={false}
                autoComplete="url"
                className="font-mono text-[13px]"
              />
              <Button type="button" onClick={onFetch} disabled={!url.trim() || fetchList.isPending} data-testid="updates-fetch">
                {fetchList.isPending ? <Loader2 className="animate-spin" /> : <CloudDownload />}
                {t('updates.fetch')}
              </Button>
            </div>
            {defaultUrl && url.trim() !== defaultUrl && (
              <button type="button" className="w-fit text-left text-sm text-primary underline-offset-4 hover:underline" onClick={() => setUrl(defaultUrl)}>
                {t('updates.useDefault')}
              </button>
            )}
          </div>

          {error && (
            <Alert variant="destructive" data-testid="updates-error">
              <TriangleAlert />
              <AlertTitle>{t('updates.fetchFailed')}</AlertTitle>
              <AlertDescription className="text-destructive/90">{errorText}</AlertDescription>
            </Alert>
          )}

          {result && (
            <Alert data-testid="updates-result">
              <CircleCheck className="text-success" />
              <AlertTitle>{t('updates.applied')}</AlertTitle>
              <AlertDescription>{t('updates.result', { ...result })}</AlertDescription>
            </Alert>
          )}

          {diff && (
            <div className="grid gap-3" data-testid="updates-diff">
              <div className="flex flex-wrap gap-2 text-sm">
                <Badge variant="success">{t('updates.summary.added', { count: diff.added.length })}</Badge>
                <Badge variant="secondary">{t('updates.summary.changed', { count: diff.changed.length })}</Badge>
                <Badge variant="outline">{t('updates.summary.localOnly', { count: diff.localOnly.length })}</Badge>
                <Badge variant="outline" className="text-muted-foreground">
                  {t('updates.summary.unchanged', { count: diff.unchanged })}
                </Badge>
              </div>
              <Tabs defaultValue={diff.added.length ? 'added' : diff.changed.length ? 'changed' : 'local'}>
                <TabsList className="w-full sm:w-fit">
                  <TabsTrigger value="added">{t('updates.tabs.added', { count: diff.added.length })}</TabsTrigger>
                  <TabsTrigger value="changed">{t('updates.tabs.changed', { count: diff.changed.length })}</TabsTrigger>
                  <TabsTrigger value="local">{t('updates.tabs.localOnly', { count: diff.localOnly.length })}</TabsTrigger>
                </TabsList>
                <TabsContent value="added">
                  <UpdatesAdded rows={diff.added} />
                </TabsContent>
                <TabsContent value="changed">
                  <UpdatesChanged rows={diff.changed} />
                </TabsContent>
                <TabsContent value="local">
                  <UpdatesLocalOnly rows={diff.localOnly} />
                </TabsContent>
              </Tabs>
            </div>
          )}

          <p className="text-sm text-muted-foreground">{t('updates.modesHelp')}</p>
          <DialogFooter className="gap-2">
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
              {t('actions.close')}
            </Button>
            <Button type="button" variant="secondary" onClick={() => apply('add')} disabled={sync.isPending} data-testid="updates-add">
              {sync.isPending && sync.variables?.mode === 'add' && <Loader2 className="animate-spin" />}
              {t('updates.addNew')}
            </Button>
            <Button type="button" variant="destructive" onClick={() => apply('overwrite')} disabled={sync.isPending} data-testid="updates-overwrite">
              {t('updates.overwrite')}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
      <ConfirmDialog
        open={confirmOverwrite}
        onOpenChange={setConfirmOverwrite}
        title={t('updates.confirmTitle')}
        description={t('updates.confirmDescription', { changed: unlockedChanged, removed: unlockedLocalOnly, locked })}
        confirmText={t('updates.overwrite')}
        destructive
        pending={sync.isPending}
        onConfirm={() => apply('overwrite')}
      />
    </>
  )
}
