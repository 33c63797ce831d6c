/**
 * Top bar of the public pages: brand, links (home, playground and console when signed in, about,
 * sign in when signed out) — collapsed into a dropdown below the md breakpoint — language, theme and user menu.
 */
import { Link, type LinkProps } from '@tanstack/react-router'
import { Menu } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from '@/components/ui/dropdown-menu'
import { useAuthUser } from '@/stores/auth-store'
import { Brand } from './brand'
import { LanguageMenu } from './language-menu'
import { ThemeToggle } from './theme-toggle'
import { UserMenu } from './user-menu'

interface HeaderLink {
  to: LinkProps['to']
  label: string
}

export function PublicHeader() {
  const { t } = useTranslation('nav')
  const user = useAuthUser()
  const links: HeaderLink[] = [
    { to: '/', label: t('links.home') },
    ...(user ? [{ to: '/playground', label: t('items.playground') } satisfies HeaderLink] : []),
    { to: '/about', label: t('links.about') },
    user ? { to: '/panel', label: t('links.console') } : { to: '/login', label: t('links.login') },
  ]
  return (
    <header className="sticky top-0 z-40 border-b bg-background/80 backdrop-blur supports-[backdrop-filter]:bg-background/70">
      <div className="mx-auto flex h-16 max-w-[1400px] items-center gap-2 px-4 md:px-6">
        <Brand className="mr-4" />
        <nav className="hidden items-center gap-1 md:flex" aria-label={t('mainNavigation')} data-testid="public-links">
          {links.map((l) => (
            <Button key={l.label} asChild variant="ghost" size="sm" className="text-muted-foreground">
              <Link to={l.to} activeOptions={{ exact: l.to === '/' }} activeProps={{ className: 'text-foreground bg-accent' }}>
                {l.label}
              </Link>
            </Button>
          ))}
        </nav>
        <div className="ml-auto flex items-center gap-1">
          <div className="md:hidden">
            <DropdownMenu>
              <DropdownMenuTrigger asChild>
                <Button variant="ghost" size="icon" aria-label={t('openMenu')} data-testid="public-links-menu">
                  <Menu />
                </Button>
              </DropdownMenuTrigger>
              <DropdownMenuContent align="end" className="w-44">
                {links.map((l) => (
                  <DropdownMenuItem key={l.label} asChild>
                    <Link to={l.to}>{l.label}</Link>
                  </DropdownMenuItem>
                ))}
              </DropdownMenuContent>
            </DropdownMenu>
          </div>
          <LanguageMenu />
          <ThemeToggle />
          {user && <UserMenu user={user} />}
        </div>
      </div>
    </header>
  )
}
