/**
 * /panel/profile: account overview, personal info, password, two-factor sign-in, access token, the
 * own notices (their own query), the signed-in sessions (their own query), the passkeys (features/passkeys/, their own list) and the
 * accounts bound to this user, from GET /api/user/self.
 */
import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { Skeleton } from '@/components/ui/skeleton'
import { PageHeader } from '@/components/page-header'
import { selfQueryOptions } from '@/features/auth/api'
import { AccessTokenCard } from './components/access-token-card'
import { AccountBindingCard } from './components/account-binding-card'
import { PasswordForm } from './components/password-form'
import { ProfileInfoForm } from './components/profile-info-form'
import { ProfileOverview } from './components/profile-overview'
import { TwoFactorCard } from './components/two-factor-card'
import { PasskeysCard } from '@/features/passkeys/components/passkeys-card'
import { SessionsCard } from './components/sessions-card'
import { NoticesCard } from './components/notices-card'

export function Profile() {
  const { t } = useTranslation('profile')
  // The console layout keeps the stored user in step with this query.
  const { data: user } = useQuery(selfQueryOptions)
  return (
    <>
      <PageHeader title={t('title')} description={t('description')} />
      {user ? (
        <div className="grid items-start gap-6 xl:grid-cols-[360px_minmax(0,1fr)]">
          <div className="grid gap-6 xl:sticky xl:top-22">
            <ProfileOverview user={user} />
            <AccountBindingCard user={user} />
          </div>
          <div className="grid gap-6">
            <ProfileInfoForm key={`${user.username}:${user.display_name}`} user={user} />
            <PasswordForm />
            <TwoFactorCard />
            <PasskeysCard />
            <NoticesCard />
            <AccessTokenCard hasToken={user.has_access_token} />
            <SessionsCard />
          </div>
        </div>
      ) : (
        <div className="grid gap-6 xl:grid-cols-[360px_1fr]">
          <Skeleton className="h-80" />
          <Skeleton className="h-80" />
        </div>
      )}
    </>
  )
}
