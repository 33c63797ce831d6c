/**
 * Renders the menu data of nav.ts: collapsible groups, collapsible sub-menus and items. The
 * selected item follows the URL. Data of an unknown group or entry type renders a menu error
 * instead of breaking the drawer.
 */
import { Link, useRouterState } from '@tanstack/react-router'
import { ChevronDown, TriangleAlert } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Collapsible, CollapsibleContent, CollapsibleTrigger } from '@/components/ui/collapsible'
import { Badge } from '@/components/ui/badge'
import { cn } from '@/lib/utils'
import type { NavCollapse, NavEntry, NavGroup, NavItem } from './nav'

interface NavMenuProps {
  groups: NavGroup[]
  /** Called after an item is chosen (closes the temporary drawer). */
  onNavigate?: () => void
}

const isActive = (pathname: string, item: NavItem) => typeof item.to === 'string' && (pathname === item.to || pathname.startsWith(`${item.to}/`))

export function NavMenu({ groups, onNavigate }: NavMenuProps) {
  const pathname = useRouterState({ select: (s) => s.location.pathname })
  return (
    <nav className="flex flex-col gap-4" data-testid="console-nav">
      {groups.map((group) =>
        group.type === 'group' ? (
          <NavGroupSection key={group.id} group={group} pathname={pathname} onNavigate={onNavigate} />
        ) : (
          <MenuError key={String((group as { id?: unknown }).id)} kind="group" />
        )
      )}
    </nav>
  )
}

function NavGroupSection({ group, pathname, onNavigate }: { group: NavGroup; pathname: string; onNavigate?: () => void }) {
  const { t } = useTranslation('nav')
  return (
    <Collapsible defaultOpen className="group/section">
      <CollapsibleTrigger className="flex w-full items-center justify-between rounded-md px-3 py-1.5 text-xs font-semibold tracking-wider text-muted-foreground uppercase hover:text-foreground">
        <span className="flex flex-col items-start gap-0.5 text-left">
          {t(`groups.${group.id}`)}
          {group.caption && <span className="font-normal tracking-normal normal-case">{t(group.caption)}</span>}
        </span>
        <ChevronDown className="size-3.5 transition-transform group-data-[state=closed]/section:-rotate-90" />
      </CollapsibleTrigger>
      <CollapsibleContent className="mt-1 flex flex-col gap-0.5">
        {group.children.map((entry) => (
          <NavEntryView key={entry.id} entry={entry} pathname={pathname} onNavigate={onNavigate} />
        ))}
      </CollapsibleContent>
    </Collapsible>
  )
}

function NavEntryView({ entry, pathname, onNavigate }: { entry: NavEntry; pathname: string; onNavigate?: () => void }) {
  switch (entry.type) {
    case 'item':
      return <NavItemLink item={entry} active={isActive(pathname, entry)} onNavigate={onNavigate} />
    case 'collapse':
      return <NavCollapseSection entry={entry} pathname={pathname} onNavigate={onNavigate} />
    default:
      return <MenuError kind="item" />
  }
}

function NavCollapseSection({ entry, pathname, onNavigate }: { entry: NavCollapse; pathname: string; onNavigate?: () => void }) {
  const { t } = useTranslation('nav')
  const Icon = entry.icon
  const open = entry.children.some((c) => isActive(pathname, c))
  return (
    <Collapsible defaultOpen={open} className="group/collapse">
      <CollapsibleTrigger className={itemClass(false)}>
        <Icon />
        <span className="flex-1 truncate text-left">{t(`items.${entry.id}`)}</span>
        <ChevronDown className="size-4 transition-transform group-data-[state=closed]/collapse:-rotate-90" />
      </CollapsibleTrigger>
      <CollapsibleContent className="ml-4 flex flex-col gap-0.5 border-l pl-2">
        {entry.children.map((item) => (
          <NavItemLink key={item.id} item={item} active={isActive(pathname, item)} onNavigate={onNavigate} />
        ))}
      </CollapsibleContent>
    </Collapsible>
  )
}

const itemClass = (active: boolean) =>
  cn(
    'flex h-10 w-full items-center gap-3 rounded-lg px-3 text-sm font-medium text-sidebar-foreground transition-colors hover:bg-sidebar-accent/70 hover:text-sidebar-accent-foreground [&_svg]:size-[18px] [&_svg]:shrink-0',
    active && 'bg-sidebar-accent text-sidebar-accent-foreground'
  )

function NavItemLink({ item, active, onNavigate }: { item: NavItem; active: boolean; onNavigate?: () => void }) {
  const { t } = useTranslation('nav')
  const Icon = item.icon
  const body = (
    <>
      <Icon />
      <span className="flex min-w-0 flex-1 flex-col">
        <span className="truncate">{t(`items.${item.id}`)}</span>
        {item.caption && <span className="truncate text-xs font-normal text-muted-foreground">{t(item.caption)}</span>}
      </span>
      {item.chip && <Badge variant="secondary">{t(item.chip)}</Badge>}
    </>
  )
  if (item.disabled) {
    return (
      <span aria-disabled className={cn(itemClass(false), 'pointer-events-none opacity-50')}>
        {body}
      </span>
    )
  }
  if (item.external) {
    return (
      <a href={String(item.to)} target={item.target ? '_blank' : undefined} rel="noreferrer" onClick={onNavigate} className={itemClass(false)}>
        {body}
      </a>
    )
  }
  return (
    <Link to={item.to} onClick={onNavigate} className={itemClass(active)} aria-current={active ? 'page' : undefined}>
      {body}
    </Link>
  )
}

function MenuError({ kind }: { kind: 'group' | 'item' }) {
  const { t } = useTranslation('nav')
  return (
    <div role="alert" className="flex items-center gap-2 rounded-lg px-3 py-2 text-sm text-destructive">
      <TriangleAlert className="size-4" />
      {kind === 'group' ? t('menuError.group') : t('menuError.item')}
    </div>
  )
}
