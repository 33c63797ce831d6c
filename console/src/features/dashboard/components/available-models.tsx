/** The models the user's group can call, as chips that copy their name (and a "copy all" button). */
import { Copy } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Skeleton } from '@/components/ui/skeleton'
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip'
import { copyText } from '@/lib/clipboard'

export function AvailableModels({ models }: { models: string[] | undefined }) {
  const { t } = useTranslation('dashboard')
  return (
    <Card className="min-w-0 gap-4" data-testid="available-models">
      <CardHeader>
        <CardTitle>{t('models.title')}</CardTitle>
        <CardDescription>{models ? t('models.description', { count: models.length }) : t('models.loading')}</CardDescription>
        {models && models.length > 0 && (
          <CardAction>
            <Button variant="outline" size="sm" onClick={() => void copyText(models.join(','))}>
              <Copy />
              {t('models.copyAll')}
            </Button>
          </CardAction>
        )}
      </CardHeader>
      <CardContent>
        {!models ? (
          <div className="flex flex-wrap gap-2">
            {Array.from({ length: 8 }, (_, i) => (
              <Skeleton key={i} className="h-7 w-28 rounded-full" />
            ))}
          </div>
        ) : models.length === 0 ? (
          <p className="rounded-lg border border-dashed p-6 text-center text-sm text-muted-foreground">{t('models.none')}</p>
        ) : (
          <ul className="flex max-h-56 flex-wrap gap-2 overflow-y-auto" aria-label={t('models.title')}>
            {models.map((model) => (
              // The item may not grow past the card: a long model name truncates instead of widening the page.
              <li key={model} className="min-w-0 max-w-full">
                <Tooltip>
                  <TooltipTrigger asChild>
                    <button
                      type="button"
                      onClick={() => void copyText(model)}
                      className="group inline-flex max-w-full items-center gap-1.5 rounded-full border bg-secondary/60 px-3 py-1 font-mono text-xs text-secondary-foreground transition-colors hover:border-primary/40 hover:bg-accent hover:text-accent-foreground"
                      data-testid="model-chip"
                    >
                      <span className="truncate">{model}</span>
                      <Copy className="size-3 opacity-40 group-hover:opacity-100" />
                    </button>
                  </TooltipTrigger>
                  <TooltipContent>{t('models.copy')}</TooltipContent>
                </Tooltip>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  )
}
