/**
 * The body of one settings tab: its section cards, with a sticky list of the sections on wide
 * screens that scrolls to a card and marks the one being read.
 */
import { useEffect, useState, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { cn } from '@/lib/utils'

export interface TabSection {
  id: string
  title: string
}

function useActiveSection(ids: string[]): string | undefined {
  const [active, setActive] = useState<string | undefined>(ids[0])
  useEffect(() => {
    const visible = new Map<string, boolean>()
    const observer = new IntersectionObserver(
      (entries) => {
        for (const e of entries) visible.set(e.target.id, e.isIntersecting)
        const first = ids.find((id) => visible.get(id))
        if (first) setActive(first)
      },
      // The band just under the top bar decides which card is "current".
      { rootMargin: '-96px 0px -55% 0px' }
    )
    for (const id of ids) {
      const el = document.getElementById(id)
      if (el) observer.observe(el)
    }
    return () => observer.disconnect()
  }, [ids])
  return active
}

export function SettingsTabLayout({ sections, children }: { sections: TabSection[]; children: ReactNode }) {
  const { t } = useTranslation('settings')
  const [ids] = useState(() => sections.map((s) => s.id))
  const active = useActiveSection(ids)
  return (
    <div className="grid items-start gap-6 lg:grid-cols-[190px_minmax(0,1fr)]">
      <nav aria-label={t('onThisTab')} className="sticky top-22 hidden lg:block">
        <p className="mb-2 px-3 text-xs font-semibold tracking-wide text-muted-foreground uppercase">{t('onThisTab')}</p>
        <ul className="grid gap-0.5 border-l">
          {sections.map((s) => (
            <li key={s.id}>
              <button
                type="button"
                onClick={() => document.getElementById(s.id)?.scrollIntoView({ behavior: 'smooth', block: 'start' })}
                aria-current={active === s.id ? 'true' : undefined}
                className={cn(
                  '-ml-px w-full border-l-2 border-transparent px-3 py-1.5 text-left text-sm text-muted-foreground transition-colors hover:text-foreground',
                  active === s.id && 'border-primary font-medium text-foreground'
                )}
              >
                {s.title}
              </button>
            </li>
          ))}
        </ul>
      </nav>
      <div className="grid min-w-0 gap-6">{children}</div>
    </div>
  )
}
