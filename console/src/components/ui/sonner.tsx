/**
 * The toast outlet (sonner) with placement: top-right, bottom-centre on screens 600 px
 * wide or less, at most 3 visible, themed with the console tokens.
 */
import { useSyncExternalStore, type CSSProperties } from 'react'
import { Toaster as Sonner } from 'sonner'
import { useTheme } from '@/context/theme-provider'

const narrowQuery = '(max-width: 600px)'
const subscribe = (cb: () => void) => {
  const mql = window.matchMedia(narrowQuery)
  mql.addEventListener('change', cb)
  return () => mql.removeEventListener('change', cb)
}
const isNarrow = () => window.matchMedia(narrowQuery).matches

export function Toaster() {
  const { theme } = useTheme()
  const narrow = useSyncExternalStore(subscribe, isNarrow)
  return (
    <Sonner
      theme={theme}
      position={narrow ? 'bottom-center' : 'top-right'}
      // Below the 64 px top bars, so toasts never cover the header controls.
      offset={{ top: 72, right: 16 }}
      visibleToasts={3}
      richColors
      closeButton
      className="toaster group"
      style={
        {
          '--normal-bg': 'var(--popover)',
          '--normal-text': 'var(--popover-foreground)',
          '--normal-border': 'var(--border)',
          '--border-radius': 'var(--radius)',
        } as CSSProperties
      }
    />
  )
}
