/**
 * The tokens page before the user has any key: what a key is for, the API base URL it works
 * against, and a button that opens the create dialog.
 */
import { KeyRound, Plus } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { useSiteInfo } from '@/features/site/api'
import { useTokensDialog } from './tokens-provider'
import { siteUrl } from '@/lib/base-path'

export function TokensEmpty() {
  const { t } = useTranslation('tokens')
  const { open } = useTokensDialog()
  const { server_address } = useSiteInfo()
  const base = `${(server_address || siteUrl()).replace(/\/+$/, '')}/v1`
  return (
    <div className="mt-4 flex flex-col items-center gap-4 rounded-xl border border-dashed px-6 py-12 text-center" data-testid="tokens-empty">
      <div className="flex size-12 items-center justify-center rounded-full bg-primary/10 text-primary">
        <KeyRound className="size-6" />
      </div>
      <div className="grid max-w-md gap-2">
        <h2 className="text-lg font-semibold">{t('emptyState.title')}</h2>
        <p className="text-sm text-muted-foreground">{t('emptyState.description')}</p>
        <p className="text-sm text-muted-foreground">
          {t('emptyState.baseUrl')} <code className="rounded bg-muted px-1.5 py-0.5 font-mono text-xs break-all text-foreground">{base}</code>
        </p>
      </div>
      <Button onClick={() => open({ kind: 'create' })} data-testid="token-create-first">
        <Plus />
        {t('emptyState.create')}
      </Button>
    </div>
  )
}
