/** The signed-in user's menu: who is signed in, settings (→ /panel/profile) and sign out. */
import { Link } from '@tanstack/react-router'
import { LogOut, Settings } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Avatar, AvatarFallback, AvatarImage } from '@/components/ui/avatar'
import { Button } from '@/components/ui/button'
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuGroup,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu'
import { useSignOut } from '@/features/auth/api'
import type { UserProfile } from '@/stores/auth-store'

export function UserAvatar({ user, className }: { user: UserProfile; className?: string }) {
  const name = user.display_name || user.username
  return (
    <Avatar className={className}>
      {user.avatar_url && <AvatarImage src={user.avatar_url} alt={name} />}
      <AvatarFallback className="bg-primary/10 font-medium text-primary uppercase">{name.slice(0, 1)}</AvatarFallback>
    </Avatar>
  )
}

export function UserMenu({ user }: { user: UserProfile }) {
  const { t } = useTranslation()
  const signOut = useSignOut()
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="icon" className="rounded-full" aria-label={t('userMenu.label')} data-testid="user-menu">
          <UserAvatar user={user} />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-56">
        <DropdownMenuLabel className="font-normal">
          <div className="flex flex-col gap-1">
            <p className="truncate text-sm font-medium">{user.display_name || user.username}</p>
            <p className="truncate text-xs text-muted-foreground">{user.email || user.username}</p>
          </div>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuGroup>
          <DropdownMenuItem asChild>
            <Link to="/panel/profile">
              <Settings />
              {t('userMenu.settings')}
            </Link>
          </DropdownMenuItem>
        </DropdownMenuGroup>
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={() => signOut.mutate()} data-testid="sign-out">
          <LogOut />
          {t('userMenu.signOut')}
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  )
}
