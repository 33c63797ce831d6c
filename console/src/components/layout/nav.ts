/**
 * The one menu list of the console. Groups hold items or collapsible
 * sub-menus; titles are looked up by id in the `nav` translations (`items.<id>`, `groups.<id>`);
 * `isAdmin` entries are hidden from users below role 10 and a group left without visible children
 * is hidden. Only entries whose page exists are listed: a new page adds its entry here with the
 * route it lives on (`to`), and nothing else in the layout changes.
 */
import type { LinkProps } from '@tanstack/react-router'
import {
  Blocks,
  CalendarClock,
  PackageOpen,
  BadgeDollarSign,
  BookOpenText,
  ChartColumnBig,
  History,
  CreditCard,
  Images,
  ListMusic,
  KeyRound,
  LayoutDashboard,
  MessagesSquare,
  ScrollText,
  Server,
  Send,
  Settings,
  Split,
  Tags,
  TicketPercent,
  UserRoundCog,
  Users,
  WalletCards,
  Waypoints,
  BellRing,
  type LucideIcon,
} from 'lucide-react'

/** Every menu entry id the product knows; titles exist for all of them. */
export type NavId =
  | 'dashboard'
  | 'analytics'
  | 'channel'
  | 'token'
  | 'playground'
  | 'log'
  | 'redemption'
  | 'topup'
  | 'plans'
  | 'plan_admin'
  | 'midjourney'
  | 'task'
  | 'user'
  | 'profile'
  | 'pricing'
  | 'model_price'
  | 'payment'
  | 'setting'
  | 'model_routing'
  | 'audit'
  | 'telegram'
  | 'mcp'
  | 'notify'
  | 'api_docs'
  | 'system'

export type NavGroupId = 'dashboard' | 'usage' | 'billing' | 'setting'

export interface NavItem {
  type: 'item'
  id: NavId
  /** The route of the page (typed against the route tree). */
  to: LinkProps['to']
  icon: LucideIcon
  /** Show the breadcrumb bar on this page (false for every entry, per spec). */
  breadcrumbs: boolean
  isAdmin?: boolean
  /** Root only (role 100). */
  isRoot?: boolean
  disabled?: boolean
  /** Open outside the console (`to` is then an absolute URL), optionally in a new tab. */
  external?: boolean
  target?: boolean
  /** i18n key of a small caption / chip shown with the title. */
  caption?: string
  chip?: string
}

export interface NavCollapse {
  type: 'collapse'
  id: NavId
  icon: LucideIcon
  isAdmin?: boolean
  children: NavItem[]
}

export type NavEntry = NavItem | NavCollapse

export interface NavGroup {
  type: 'group'
  id: NavGroupId
  /** i18n key of a caption under the group title. */
  caption?: string
  children: NavEntry[]
}

export const navGroups: NavGroup[] = [
  {
    type: 'group',
    id: 'dashboard',
    children: [
      { type: 'item', id: 'dashboard', to: '/panel/dashboard', icon: LayoutDashboard, breadcrumbs: false },
      { type: 'item', id: 'analytics', to: '/panel/analytics', icon: ChartColumnBig, breadcrumbs: false, isAdmin: true },
      { type: 'item', id: 'playground', to: '/panel/playground', icon: MessagesSquare, breadcrumbs: false },
    ],
  },
  {
    type: 'group',
    id: 'usage',
    children: [
      { type: 'item', id: 'token', to: '/panel/token', icon: KeyRound, breadcrumbs: false },
      { type: 'item', id: 'log', to: '/panel/log', icon: ScrollText, breadcrumbs: false },
      { type: 'item', id: 'midjourney', to: '/panel/midjourney', icon: Images, breadcrumbs: false },
      { type: 'item', id: 'task', to: '/panel/task', icon: ListMusic, breadcrumbs: false },
    ],
  },
  {
    type: 'group',
    id: 'billing',
    children: [
      { type: 'item', id: 'topup', to: '/panel/topup', icon: WalletCards, breadcrumbs: false },
      { type: 'item', id: 'plans', to: '/panel/plans', icon: CalendarClock, breadcrumbs: false },
      { type: 'item', id: 'model_price', to: '/panel/model_price', icon: Tags, breadcrumbs: false },
      { type: 'item', id: 'pricing', to: '/panel/pricing', icon: BadgeDollarSign, breadcrumbs: false, isAdmin: true },
      { type: 'item', id: 'plan_admin', to: '/panel/plan-admin', icon: PackageOpen, breadcrumbs: false, isAdmin: true },
      { type: 'item', id: 'redemption', to: '/panel/redemption', icon: TicketPercent, breadcrumbs: false, isAdmin: true },
      { type: 'item', id: 'payment', to: '/panel/payment', icon: CreditCard, breadcrumbs: false, isAdmin: true },
    ],
  },
  {
    type: 'group',
    id: 'setting',
    children: [
      { type: 'item', id: 'channel', to: '/panel/channel', icon: Waypoints, breadcrumbs: false, isAdmin: true },
      { type: 'item', id: 'user', to: '/panel/user', icon: Users, breadcrumbs: false, isAdmin: true },
      { type: 'item', id: 'profile', to: '/panel/profile', icon: UserRoundCog, breadcrumbs: false },
      { type: 'item', id: 'setting', to: '/panel/setting', icon: Settings, breadcrumbs: false, isAdmin: true },
      { type: 'item', id: 'model_routing', to: '/panel/model-routing', icon: Split, breadcrumbs: false, isAdmin: true, isRoot: true },
      { type: 'item', id: 'audit', to: '/panel/audit', icon: History, breadcrumbs: false, isAdmin: true },
      { type: 'item', id: 'system', to: '/panel/system', icon: Server, breadcrumbs: false, isAdmin: true, isRoot: true },
      { type: 'item', id: 'telegram', to: '/panel/telegram', icon: Send, breadcrumbs: false, isAdmin: true },
      { type: 'item', id: 'mcp', to: '/panel/mcp', icon: Blocks, breadcrumbs: false, isAdmin: true },
      { type: 'item', id: 'notify', to: '/panel/notify', icon: BellRing, breadcrumbs: false, isAdmin: true, isRoot: true },
      { type: 'item', id: 'api_docs', to: '/panel/api-docs', icon: BookOpenText, breadcrumbs: false, isAdmin: true },
    ],
  },
]

/** The menu as a given user sees it: admin (and, below root, root) entries removed, then empty collapses and groups. */
export function visibleNav(groups: NavGroup[], admin: boolean, root = false): NavGroup[] {
  const allowed = <T extends { isAdmin?: boolean; isRoot?: boolean }>(e: T) => (admin || !e.isAdmin) && (root || !e.isRoot)
  return groups
    .map((group) => ({
      ...group,
      children: group.children.filter(allowed).flatMap((entry): NavEntry[] => {
        if (entry.type !== 'collapse') return [entry]
        const children = entry.children.filter(allowed)
        return children.length ? [{ ...entry, children }] : []
      }),
    }))
    .filter((group) => group.children.length > 0)
}

export interface NavTrail {
  group: NavGroup
  parent?: NavCollapse
  item: NavItem
}

/** The menu path to the page at `pathname` (the selected entry is derived from the URL). */
export function findNavTrail(groups: NavGroup[], pathname: string): NavTrail | undefined {
  const matches = (item: NavItem) => typeof item.to === 'string' && (pathname === item.to || pathname.startsWith(`${item.to}/`))
  for (const group of groups) {
    for (const entry of group.children) {
      if (entry.type === 'item' && matches(entry)) return { group, item: entry }
      if (entry.type === 'collapse') {
        const item = entry.children.find(matches)
        if (item) return { group, parent: entry, item }
      }
    }
  }
  return undefined
}
