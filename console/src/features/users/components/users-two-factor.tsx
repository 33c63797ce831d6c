/**
 * The edit dialog's "Two-factor sign-in" section, for root only: which second factors the user has
 * (GET /api/user/:id/2fa) and "Reset 2FA" after a confirmation, which removes them all (the server
 * audit-logs it and mails the user). Shown only when the user has at least one.
 */
import { useState } from 'react'
import { useQuery } from '@tanstack/react-query'
import { ShieldOff } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { ConfirmDialog } from '@/components/confirm-dialog'
import { useAuthUser } from '@/stores/auth-store'
import { ROLE } from '@contract/enums'
import { twoFactorQueryOptions, useResetTwoFactor } from '../api'

export function UsersTwoFactor({ userId, username }: { userId: number; username: string }) {
  const me = useAuthUser()
  const root = (me?.role ?? 0) >= ROLE.ROOT
  if (!root || me?.id === userId) return null
  return <TwoFactorReset userId={userId} username={username} />
}

function TwoFactorReset({ userId, username }: { userId: number; username: string }) {
  const { t } = useTranslation('users')
  const status = useQuery(twoFactorQueryOptions(userId))
  const reset = useResetTwoFactor(userId)
  const [confirming, setConfirming] = useState(false)
  const methods = status.data?.methods ?? []
  if (methods.length === 0) return null

  return (
    <section className="grid gap-2 sm:col-span-2" data-testid="user-two-factor">
      <h3 className="text-sm font-medium">{t('twoFactor.title')}</h3>
      <div className="flex flex-wrap items-center gap-2 rounded-lg border px-3 py-2">
        {methods.map((m) => (
          <Badge key={m} variant="secondary">
            {m === 'passkey' ? t('twoFactor.methods.passkey', { count: status.data?.passkeys ?? 0 }) : t('twoFactor.methods.totp')}
          </Badge>
        ))}
        <Button
          type="button"
          size="sm"
          variant="ghost"
          className="ms-auto text-muted-foreground hover:text-destructive"
          onClick={() => setConfirming(true)}
          data-testid="admin-reset-2fa"
        >
          <ShieldOff />
          {t('twoFactor.reset')}
        </Button>
      </div>
      <ConfirmDialog
        open={confirming}
        onOpenChange={(open) => !open && !reset.isPending && setConfirming(false)}
        title={t('twoFactor.confirmTitle', { name: username })}
        description={t('twoFactor.confirmDescription', { name: username })}
        confirmText={t('twoFactor.reset')}
        destructive
        pending={reset.isPending}
        onConfirm={() => reset.mutate(undefined, { onSettled: () => setConfirming(false) })}
      />
    </section>
  )
}
