/**
 * Personal access token for the management API (Authorization header): generate or reset
 * (GET /api/user/token) or revoke (DELETE /api/user/token). The token is shown once, with a copy
 * button and a warning.
 */
import { Ban, Copy, KeyRound, Loader2, RefreshCw, TriangleAlert } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Input } from '@/components/ui/input'
import { copyText } from '@/lib/clipboard'
import { useGenerateAccessToken } from '../api'
import { useRevokeAccessToken } from '../sessions-api'

export function AccessTokenCard({ hasToken }: { hasToken: boolean }) {
  const { t } = useTranslation('profile')
  const generate = useGenerateAccessToken()
  const revoke = useRevokeAccessToken()
  const token = generate.data
  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('token.title')}</CardTitle>
        <CardDescription>{t('token.description')}</CardDescription>
        <CardAction>
          <Badge variant={hasToken ? 'success' : 'secondary'} data-testid="access-token-status">
            {hasToken ? t('token.active') : t('token.none')}
          </Badge>
        </CardAction>
      </CardHeader>
      <CardContent className="grid gap-4">
        {token && (
          <Alert variant="warning">
            <TriangleAlert />
            <AlertTitle>{t('token.shownOnce')}</AlertTitle>
            <AlertDescription className="w-full">
              <div className="mt-2 flex w-full gap-2">
                <Input readOnly value={token} className="bg-background font-mono" data-testid="access-token-value" onFocus={(e) => e.currentTarget.select()} />
                <Button type="button" variant="outline" size="icon" onClick={() => copyText(token)} aria-label={t('token.copy')}>
                  <Copy />
                </Button>
              </div>
            </AlertDescription>
          </Alert>
        )}
        <div>
          <div className="flex flex-wrap gap-2">
            <Button variant={hasToken ? 'outline' : 'default'} onClick={() => generate.mutate()} disabled={generate.isPending} data-testid="access-token-generate">
              {generate.isPending ? <Loader2 className="animate-spin" /> : hasToken ? <RefreshCw /> : <KeyRound />}
              {hasToken ? t('token.reset') : t('token.generate')}
            </Button>
            {hasToken && (
              <Button
                variant="outline"
                onClick={() => revoke.mutate(undefined, { onSuccess: () => generate.reset() })}
                disabled={revoke.isPending}
                data-testid="access-token-revoke"
              >
                {revoke.isPending ? <Loader2 className="animate-spin" /> : <Ban />}
                {t('token.revoke')}
              </Button>
            )}
          </div>
          {hasToken && <p className="mt-2 text-sm text-muted-foreground">{t('token.resetHint')}</p>}
        </div>
      </CardContent>
    </Card>
  )
}
