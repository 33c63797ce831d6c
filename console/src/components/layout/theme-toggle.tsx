/** Light/dark toggle button of both top bars. */
import { Moon, Sun } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { useTheme } from '@/context/theme-provider'

export function ThemeToggle() {
  const { t } = useTranslation()
  const { theme, toggleTheme } = useTheme()
  const label = theme === 'dark' ? t('theme.toLight') : t('theme.toDark')
  return (
    <Button variant="ghost" size="icon" onClick={toggleTheme} aria-label={label} title={label} data-testid="theme-toggle">
      {theme === 'dark' ? <Sun /> : <Moon />}
    </Button>
  )
}
