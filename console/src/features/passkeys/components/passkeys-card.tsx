/**
 * The profile's "Passkeys" section: the account's passkeys (name, transports, synced, added, last
 * used) with rename and delete, and "Add a passkey" (name it, then the browser's prompt).
 * Hidden behind a notice when the browser has no WebAuthn.
 */
import { useState } from 'react'
import { useQuery } from '@tanstack/react-query'
import { Fingerprint, Loader2, Pencil, Plus, Trash2 } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { browserSupportsWebAuthn } from '@simplewebauthn/browser'
import type { PasskeyView } from '@contract/passkeys'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Skeleton } from '@/components/ui/skeleton'
import { ConfirmDialog } from '@/components/confirm-dialog'
import { timestamp2string } from '@/lib/format'
import { passkeysQueryOptions, useDeletePasskey } from '../api'
import { PasskeyNameDialog } from './passkey-name-dialog'

type Dialog = { kind: 'add' } | { kind: 'rename'; passkey: PasskeyView } | { kind: 'delete'; passkey: PasskeyView } | undefined

export function PasskeysCard() {
  const { t } = useTranslation('profile')
  const { data: passkeys } = useQuery(passkeysQueryOptions)
  const remove = useDeletePasskey()
  const [dialog, setDialog] = useState<Dialog>()
  const supported = browserSupportsWebAuthn()

  return (
    <Card data-testid="passkeys-card">
      <CardHeader>
        <CardTitle>{t('passkeys.title')}</CardTitle>
        <CardDescription>{t('passkeys.description')}</CardDescription>
        <CardAction>
          <Button size="sm" onClick={() => setDialog({ kind: 'add' })} disabled={!supported} data-testid="passkey-add">
            <Plus />
            {t('passkeys.add')}
          </Button>
        </CardAction>
      </CardHeader>
      <CardContent className="grid gap-3">
        {!supported && <p className="text-sm text-muted-foreground">{t('passkeys.unsupported')}</p>}
        {!passkeys ? (
          <Skeleton className="h-16" />
        ) : passkeys.length === 0 ? (
          <p className="text-sm text-muted-foreground" data-testid="passkeys-empty">
            {t('passkeys.empty')}
          </p>
        ) : (
          <ul className="grid gap-2">
            {passkeys.map((p) => (
              <li key={p.id} className="flex flex-wrap items-center gap-3 rounded-lg border p-3" data-testid="passkey-row">
                <Fingerprint className="size-5 shrink-0 text-muted-foreground" />
                <div className="grid min-w-0 flex-1 gap-1">
                  <div className="flex flex-wrap items-center gap-2">
                    <span className="truncate font-medium" data-testid="passkey-name">
                      {p.name}
                    </span>
                    {p.backed_up && <Badge variant="secondary">{t('passkeys.synced')}</Badge>}
                    {p.transports.map((tr) => (
                      <Badge key={tr} variant="outline">
                        {t(`passkeys.transport.${tr}`, { defaultValue: tr })}
                      </Badge>
                    ))}
                  </div>
                  <p className="text-xs text-muted-foreground">
                    {t('passkeys.created', { time: timestamp2string(p.created_at) })}
                    {' · '}
                    {p.last_used_at ? t('passkeys.lastUsed', { time: timestamp2string(p.last_used_at) }) : t('passkeys.neverUsed')}
                  </p>
                </div>
                <div className="flex gap-1">
                  <Button variant="ghost" size="icon" aria-label={t('passkeys.rename')} onClick={() => setDialog({ kind: 'rename', passkey: p })}>
                    <Pencil />
                  </Button>
                  <Button variant="ghost" size="icon" aria-label={t('passkeys.delete')} onClick={() => setDialog({ kind: 'delete', passkey: p })}>
                    {remove.isPending && remove.variables === p.id ? <Loader2 className="animate-spin" /> : <Trash2 />}
                  </Button>
                </div>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
      <PasskeyNameDialog
        key={dialog?.kind === 'rename' ? `rename-${dialog.passkey.id}` : 'add'}
        open={dialog?.kind === 'add' || dialog?.kind === 'rename'}
        passkey={dialog?.kind === 'rename' ? dialog.passkey : undefined}
        onOpenChange={(open) => !open && setDialog(undefined)}
      />
      <ConfirmDialog
        open={dialog?.kind === 'delete'}
        onOpenChange={(open) => !open && setDialog(undefined)}
        title={t('passkeys.deleteTitle')}
        description={dialog?.kind === 'delete' ? t('passkeys.deleteDescription', { name: dialog.passkey.name }) : undefined}
        confirmText={t('passkeys.delete')}
        destructive
        pending={remove.isPending}
        onConfirm={() => dialog?.kind === 'delete' && remove.mutate(dialog.passkey.id, { onSuccess: () => setDialog(undefined) })}
      />
    </Card>
  )
}
