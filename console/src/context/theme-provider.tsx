/**
 * Light/dark theme: light by default, saved in localStorage `theme` and applied as the
 * `.dark` class on <html>. index.html applies the saved value before first paint; this provider
 * keeps it in step afterwards.
 */
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react'
import { STORAGE_KEYS, readString, writeString } from '@/lib/storage'

export type Theme = 'light' | 'dark'

interface ThemeState {
  theme: Theme
  setTheme: (theme: Theme) => void
  toggleTheme: () => void
}

const ThemeContext = createContext<ThemeState | null>(null)

export function ThemeProvider({ children }: { children: ReactNode }) {
  const [theme, setThemeState] = useState<Theme>(() => (readString(STORAGE_KEYS.theme) === 'dark' ? 'dark' : 'light'))

  const setTheme = useCallback((next: Theme) => {
    document.documentElement.classList.toggle('dark', next === 'dark')
    writeString(STORAGE_KEYS.theme, next)
    setThemeState(next)
  }, [])

  const value = useMemo<ThemeState>(() => ({ theme, setTheme, toggleTheme: () => setTheme(theme === 'dark' ? 'light' : 'dark') }), [theme, setTheme])
  return <ThemeContext.Provider value={value}>{children}</ThemeContext.Provider>
}

export function useTheme(): ThemeState {
  const ctx = useContext(ThemeContext)
  if (!ctx) throw new Error('useTheme must be used inside <ThemeProvider>')
  return ctx
}
