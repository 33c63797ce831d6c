/** A thin indeterminate bar at the top of the window while the router loads a route (lazy chunk, loader). */
import { useEffect, useState } from 'react'
import { useRouterState } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'

export function RouteProgress() {
  const { t } = useTranslation()
  const pending = useRouterState({ select: (s) => s.status === 'pending' })
  const [visible, setVisible] = useState(false)
  useEffect(() => {
    if (!pending) {
      setVisible(false)
      return
    }
    // Quick transitions finish before the bar would be noticed; only show it for real waits.
    const timer = setTimeout(() => setVisible(true), 120)
    return () => clearTimeout(timer)
  }, [pending])
  if (!visible) return null
  return (
    <div role="progressbar" aria-label={t('loading')} className="fixed inset-x-0 top-0 z-[100] h-0.5 overflow-hidden bg-primary/20">
      <div className="h-full w-full origin-left animate-[route-progress_1.1s_ease-in-out_infinite] bg-primary" />
    </div>
  )
}
