/**
 * The dashboard's first-run guide for administrators: while no channel exists, it explains that
 * requests need one and links to the channel sheet — prefilled for the local mock supplier of the
 * README's offline trial when the console runs on the gateway's own machine.
 */
import { useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { FlaskConical, PlugZap, Plus } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { api } from '@/lib/api-client'
import { isAdmin, useAuthUser } from '@/stores/auth-store'
import { channelKeys } from '@/features/channels/api'
import { isLocalConsole, LOCAL_MOCK_URL } from '@/features/channels/local-mock'

/** One channel is enough to know the list is not empty. */
const channelCountQuery = {
  queryKey: [...channelKeys.lists, 'count'] as const,
  queryFn: ({ signal }: { signal: AbortSignal }) => api.get<{ total_count: number }>('/api/channel/', { p: 1, page_size: 1 }, signal),
}

export function GettingStarted() {
  const admin = isAdmin(useAuthUser())
  const { data } = useQuery({ ...channelCountQuery, enabled: admin })
  if (!admin || !data || data.total_count > 0) return null
  return <NoChannelCard local={isLocalConsole()} />
}

function NoChannelCard({ local }: { local: boolean }) {
  const { t } = useTranslation('dashboard')
  return (
    <Card className="gap-4 border-primary/30 bg-primary/5" data-testid="getting-started">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <PlugZap className="size-5 text-primary" />
          {t('start.title')}
        </CardTitle>
        <CardDescription>{t('start.description')}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        {local && (
          <div className="grid gap-1.5 text-sm text-muted-foreground">
            <p>{t('start.localHint', { url: LOCAL_MOCK_URL })}</p>
            <code className="w-fit rounded-md border bg-background px-2 py-1 font-mono text-xs whitespace-nowrap text-foreground">npm run mock-upstream</code>
          </div>
        )}
        <div className="flex flex-wrap gap-2">
          {local && (
            <Button asChild data-testid="start-local-mock">
              <Link to="/panel/channel" search={{ create: 'local-mock' }}>
                <FlaskConical />
                {t('start.localMock')}
              </Link>
            </Button>
          )}
          <Button asChild variant={local ? 'outline' : 'default'} data-testid="start-add-channel">
            <Link to="/panel/channel" search={{ create: 'blank' }}>
              <Plus />
              {t('start.addChannel')}
            </Link>
          </Button>
        </div>
      </CardContent>
    </Card>
  )
}
