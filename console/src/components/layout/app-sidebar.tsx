/**
 * Content of the console drawer: the welcome card (avatar → profile, username, disabled version
 * chip) and the menu filtered for the signed-in user's role.
 */
import { useMemo } from 'react'
import { Link } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { Badge } from '@/components/ui/badge'
import { useSiteInfo } from '@/features/site/api'
import { isAdmin, isRoot, type UserProfile } from '@/stores/auth-store'
import { navGroups, visibleNav } from './nav'
import { NavMenu } from './nav-menu'
import { UserAvatar } from './user-menu'

export function SidebarContent({ user, onNavigate }: { user: UserProfile; onNavigate?: () => void }) {
  const { t } = useTranslation('nav')
  const { version } = useSiteInfo()
  const groups = useMemo(() => visibleNav(navGroups, isAdmin(user), isRoot(user)), [user])
  return (
    <div className="flex flex-col gap-5 p-4">
      <div className="rounded-xl border bg-gradient-to-br from-primary/10 via-primary/5 to-transparent p-4" data-testid="welcome-card">
        <div className="flex items-center gap-3">
          <Link
            to="/panel/profile"
            onClick={onNavigate}
            aria-label={t('items.profile')}
            className="rounded-full ring-offset-2 ring-offset-background hover:ring-2 hover:ring-primary/40"
          >
            <UserAvatar user={user} className="size-11" />
          </Link>
          <div className="min-w-0">
            <p className="text-xs text-muted-foreground">{t('welcome')}</p>
            <p className="truncate font-semibold" data-testid="welcome-username">
              {user.username}
            </p>
          </div>
        </div>
        <Badge variant="outline" aria-disabled className="mt-3 cursor-default bg-background/60 font-normal text-muted-foreground opacity-70">
          {version ? `v${version}` : t('versionUnknown')}
        </Badge>
      </div>
      <NavMenu groups={groups} onNavigate={onNavigate} />
    </div>
  )
}
