/** Render errors of any route: 'Unexpected Application Error!' with the error details. */
import type { ErrorComponentProps } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'

export function GeneralError({ error, reset }: ErrorComponentProps) {
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
        <Button variant="outline" onClick={() => window.location.assign(import.meta.env.BASE_URL)}>
          {t('actions.goHome')}
        </Button>
      </div>
    </div>
  )
}
