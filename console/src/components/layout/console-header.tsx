/** Top bar of the console: drawer toggle, brand, language, theme and user menu. */
import { Menu } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip'
import type { UserProfile } from '@/stores/auth-store'
import { Brand } from './brand'
import { LanguageMenu } from './language-menu'
import { ThemeToggle } from './theme-toggle'
import { UserMenu } from './user-menu'

export function ConsoleHeader({ user, onToggleMenu }: { user: UserProfile; onToggleMenu: () => void }) {
  const { t } = useTranslation('nav')
  return (
    <header className="sticky top-0 z-40 flex h-16 items-center gap-2 border-b bg-background/85 px-3 backdrop-blur supports-[backdrop-filter]:bg-background/70 md:px-4">
      <div className="flex min-w-0 items-center gap-2 lg:w-[244px] lg:shrink-0">
        <Brand className="hidden lg:flex" />
      </div>
      <Tooltip>
        <TooltipTrigger asChild>
          <Button variant="ghost" size="icon" onClick={onToggleMenu} aria-label={t('toggleMenu')} data-testid="menu-toggle">
            <Menu />
          </Button>
        </TooltipTrigger>
        <TooltipContent side="bottom">{t('toggleMenu')}</TooltipContent>
      </Tooltip>
      <Brand className="lg:hidden" />
      <div className="ml-auto flex items-center gap-1">
        <LanguageMenu />
        <ThemeToggle />
        <UserMenu user={user} />
      </div>
    </header>
  )
}
