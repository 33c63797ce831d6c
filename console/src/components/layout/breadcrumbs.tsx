/**
 * Breadcrumb bar of the console: the Dashboard home link, then the menu group and the current
 * item. Shown only when the current item's `breadcrumbs` flag is set (spec: all are false today).
 */
import { Fragment } from 'react'
import { Link, useRouterState } from '@tanstack/react-router'
import { ChevronRight } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { findNavTrail, type NavGroup } from './nav'

export function Breadcrumbs({ groups, maxItems = 8 }: { groups: NavGroup[]; maxItems?: number }) {
  const { t } = useTranslation('nav')
  const pathname = useRouterState({ select: (s) => s.location.pathname })
  const trail = findNavTrail(groups, pathname)
  if (!trail?.item.breadcrumbs) return null
  const crumbs = [t(`groups.${trail.group.id}`), ...(trail.parent ? [t(`items.${trail.parent.id}`)] : []), t(`items.${trail.item.id}`)].slice(-(maxItems - 1))
  return (
    <nav aria-label={t('breadcrumb')} className="mb-4 flex items-center gap-1.5 text-sm text-muted-foreground">
      <Link to="/panel" className="hover:text-foreground">
        {t('breadcrumbHome')}
      </Link>
      {crumbs.map((c, i) => (
        <Fragment key={i}>
          <ChevronRight className="size-3.5" />
          <span className={i === crumbs.length - 1 ? 'font-medium text-foreground' : undefined}>{c}</span>
        </Fragment>
      ))}
    </nav>
  )
}
