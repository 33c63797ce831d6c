/** Where the Turnstile widget appears in a form (nothing when the site does not use Turnstile). */
import { TriangleAlert } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import type { Turnstile } from '../use-turnstile'

export function TurnstileWidget({ turnstile }: { turnstile: Turnstile }) {
  const { t } = useTranslation('oauth')
  if (!turnstile.enabled) return null
  return (
    <div className="grid justify-items-center gap-2">
      <div ref={turnstile.containerRef} className="flex min-h-[65px] w-full justify-center" data-testid="turnstile" />
      {turnstile.failed && (
        <p className="flex items-center gap-1.5 text-xs text-destructive">
          <TriangleAlert className="size-3.5 shrink-0" />
          {t('turnstile.loadFailed')}
        </p>
      )}
    </div>
  )
}
