/**
 * Errors of any route: a chunk that failed to load reloads once to the deployed version (else says
 * which chunk, lib/deploy-guard.ts); anything else is 'Unexpected Application Error!' with the details.
 */
import { useEffect, useState } from 'react'
import type { ErrorComponentProps } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { chunkFailure, reloadForNewVersion } from '@/lib/deploy-guard'
import { withBase } from '@/lib/base-path'

export function GeneralError({ error, reset }: ErrorComponentProps) {
  const chunk = chunkFailure(error)
  return chunk ? <ChunkLoadFailure url={chunk.url} /> : <RenderError error={error} reset={reset} />
}

/** A route chunk did not load (most often: a deploy replaced it): reload once, else say which chunk failed. */
function ChunkLoadFailure({ url }: { url: string }) {
  const { t } = useTranslation()
  const [reloading, setReloading] = useState(true)
  useEffect(() => setReloading(reloadForNewVersion()), [])
  if (reloading) {
    return (
      <p role="status" className="mx-auto px-4 py-16 text-muted-foreground" data-testid="chunk-reloading">
        {t('errors.loadingNewVersion')}
      </p>
    )
  }
  return (
    <div role="alert" className="mx-auto flex w-full max-w-3xl flex-1 flex-col gap-4 px-4 py-16" data-testid="chunk-load-error">
      <h1 className="text-2xl font-bold text-destructive">{t('errors.chunkLoadTitle')}</h1>
      <p className="text-muted-foreground">{t('errors.chunkLoad', { url: url || '—' })}</p>
      <div className="flex gap-2">
        <Button onClick={() => window.location.reload()}>{t('actions.refresh')}</Button>
      </div>
    </div>
  )
}

function RenderError({ error, reset }: Pick<ErrorComponentProps, 'error' | 'reset'>) {
  const { t } = useTranslation()
  const details = error instanceof Error ? `${error.message}\n\n${error.stack ?? ''}` : String(error)
  return (
    <div role="alert" className="mx-auto flex w-full max-w-3xl flex-1 flex-col gap-4 px-4 py-16">
      <h1 className="text-2xl font-bold text-destructive">{t('errors.unexpected')}</h1>
      <p className="text-muted-foreground">{t('errors.unexpectedHint')}</p>
      <pre className="max-h-96 overflow-auto rounded-lg border bg-muted p-4 text-xs whitespace-pre-wrap" data-testid="error-details">
        {details}
      </pre>
      <div className="flex gap-2">
        <Button onClick={() => reset()}>{t('actions.retry')}</Button>
        <Button variant="outline" onClick={() => window.location.assign(withBase('/'))}>
          {t('actions.goHome')}
        </Button>
      </div>
    </div>
  )
}
