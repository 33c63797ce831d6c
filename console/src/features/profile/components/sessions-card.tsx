/**
 * The profile's "Sessions" section: every signed-in browser of the account (device, address,
 * signed in, last active), this one marked; sign one out, or every other one at once.
 */
import { useState } from 'react'
import { useQuery } from '@tanstack/react-query'
import { LogOut, Monitor, Smartphone } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import type { SessionView } from '@contract/sessions'
import { ConfirmDialog } from '@/components/confirm-dialog'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Skeleton } from '@/components/ui/skeleton'
import { timestamp2string } from '@/lib/format'
import { sessionsQueryOptions, useRevokeOtherSessions, useRevokeSession } from '../sessions-api'

const isPhone = (device: string) => /iOS|Android/.test(device)

function SessionRow({ session, onRevoke, pending }: { session: SessionView; onRevoke: () => void; pending: boolean }) {
  const { t } = useTranslation('profile')
  const Icon = isPhone(session.device) ? Smartphone : Monitor
  const device = session.device === 'Unknown device' ? t('sessions.unknownDevice') : session.device
  return (
    <li className="flex items-start gap-3 py-3" data-testid="session-row" data-current={session.current}>
      <Icon className="mt-0.5 size-5 shrink-0 text-muted-foreground" />
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-2 font-medium">
          <span className="truncate">{device}</span>
          {session.current && <Badge variant="success">{t('sessions.current')}</Badge>}
        </div>
        <div className="mt-1 grid gap-0.5 text-sm text-muted-foreground sm:flex sm:flex-wrap sm:gap-x-4">
          <span className="font-mono">{session.ip || '—'}</span>
          <span>{t('sessions.created', { time: timestamp2string(session.created_at) })}</span>
          <span>{t('sessions.lastSeen', { time: session.last_seen_at ? timestamp2string(session.last_seen_at) : '—' })}</span>
        </div>
      </div>
      {!session.current && (
        <Button variant="outline" size="sm" onClick={onRevoke} disabled={pending} data-testid="session-revoke">
          <LogOut />
          <span className="sr-only sm:not-sr-only">{t('sessions.revoke')}</span>
        </Button>
      )}
    </li>
  )
}

export function SessionsCard() {
  const { t } = useTranslation('profile')
  const { data, isLoading } = useQuery(sessionsQueryOptions)
  const revoke = useRevokeSession()
  const revokeAll = useRevokeOtherSessions()
  const [confirmAll, setConfirmAll] = useState(false)
  const others = data?.sessions.filter((s) => !s.current).length ?? 0
  return (
    <Card data-testid="sessions-card">
      <CardHeader>
        <CardTitle>{t('sessions.title')}</CardTitle>
        <CardDescription>{t('sessions.description')}</CardDescription>
      </CardHeader>
      <CardContent>
        {isLoading ? (
          <Skeleton className="h-24" />
        ) : (
          <ul className="divide-y">
            {data?.sessions.map((s) => (
              <SessionRow key={s.id} session={s} onRevoke={() => revoke.mutate(s.id)} pending={revoke.isPending} />
            ))}
          </ul>
        )}
        <div className="mt-2 flex sm:justify-end">
          <Button variant="outline" className="w-full sm:w-auto" onClick={() => setConfirmAll(true)} disabled={others === 0} data-testid="sessions-revoke-all">
            <LogOut />
            {t('sessions.revokeAll')}
          </Button>
        </div>
      </CardContent>
      <ConfirmDialog
        open={confirmAll}
        onOpenChange={setConfirmAll}
        title={t('sessions.revokeAllTitle')}
        description={t('sessions.revokeAllDescription', { count: others })}
        confirmText={t('sessions.revokeAll')}
        destructive
        pending={revokeAll.isPending}
        onConfirm={() => revokeAll.mutate(undefined, { onSettled: () => setConfirmAll(false) })}
      />
    </Card>
  )
}
