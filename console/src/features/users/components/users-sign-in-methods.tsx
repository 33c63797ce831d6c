/**
 * The edit dialog's "Sign-in methods" section: every method the user has or could have bound
 * (GET /api/user/:id/sign_in_methods), its id or address, and Unbind after a confirmation. The
 * server refuses to remove the last way in of an account without a password and says why.
 */
import { useState } from 'react'
import { useQuery } from '@tanstack/react-query'
import { Unlink } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Skeleton } from '@/components/ui/skeleton'
import { ConfirmDialog } from '@/components/confirm-dialog'
import { BINDING_ICONS } from '@/features/oauth/components/provider-icons'
import { signInMethodsQueryOptions, useAdminUnbind } from '../api'
import type { SignInMethodType } from '@contract/users'
import type { AdminUser } from '@contract/users'

export function UsersSignInMethods({ row }: { row: AdminUser }) {
  const { t } = useTranslation('users')
  const methods = useQuery(signInMethodsQueryOptions(row.id))
  const unbind = useAdminUnbind(row.id)
  const [confirming, setConfirming] = useState<SignInMethodType | null>(null)
  const label = (type: SignInMethodType) => t(`signIn.types.${type}`)

  return (
    <section className="grid gap-2 sm:col-span-2" data-testid="user-sign-in-methods">
      <div>
        <h3 className="text-sm font-medium">{t('signIn.title')}</h3>
        <p className="text-xs text-muted-foreground">{t('signIn.description')}</p>
      </div>
      {methods.isPending ? (
        <Skeleton className="h-24 w-full" />
      ) : methods.isError ? (
        <p className="text-sm text-destructive">{t('signIn.loadFailed')}</p>
      ) : (
        <ul className="divide-y rounded-lg border">
          {methods.data.map(({ type, bound, value, sign_in }) => {
            const Icon = BINDING_ICONS[type]
            return (
              <li key={type} className="flex items-center gap-3 px-3 py-2" data-testid={`sign-in-${type}`} data-bound={bound}>
                <Icon className="size-4 shrink-0" />
                <div className="w-0 min-w-0 flex-1">
                  <p className="flex items-center gap-2 text-sm">
                    {label(type)}
                    {!sign_in && (
                      <Badge variant="outline" className="px-1.5 py-0 text-[11px]">
                        {t('signIn.notSignIn')}
                      </Badge>
                    )}
                  </p>
                  <p className={bound ? 'truncate text-xs text-muted-foreground' : 'text-xs text-muted-foreground/70'} title={value || undefined}>
                    {value || t('signIn.notBound')}
                  </p>
                </div>
                {bound && (
                  <Button
                    type="button"
                    size="sm"
                    variant="ghost"
                    className="text-muted-foreground hover:text-destructive"
                    onClick={() => setConfirming(type)}
                    data-testid={`admin-unbind-${type}`}
                  >
                    <Unlink />
                    {t('signIn.unbind')}
                  </Button>
                )}
              </li>
            )
          })}
        </ul>
      )}
      <ConfirmDialog
        open={confirming !== null}
        onOpenChange={(open) => !open && !unbind.isPending && setConfirming(null)}
        title={t('signIn.confirmTitle', { method: confirming ? label(confirming) : '' })}
        description={t('signIn.confirmDescription', { method: confirming ? label(confirming) : '', name: row.username })}
        confirmText={t('signIn.unbind')}
        destructive
        pending={unbind.isPending}
        onConfirm={() => confirming && unbind.mutate(confirming, { onSettled: () => setConfirming(null) })}
      />
    </section>
  )
}
