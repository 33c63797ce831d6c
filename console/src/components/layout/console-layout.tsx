/**
 * Layout of the console under /panel: top bar, a 260 px drawer — persistent from the lg
 * breakpoint up, a temporary sheet below it that closes when an item is chosen — the breadcrumb
 * bar and content up to 1400 px wide. Guards the console: when nobody is signed in (logout, a
 * 401, another tab) it goes to /login. Refreshes the stored user from the server on entry.
 */
import { Suspense, useEffect, useMemo, useState } from 'react'
import { Outlet, useNavigate } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { Sheet, SheetContent, SheetDescription, SheetTitle } from '@/components/ui/sheet'
import { Skeleton } from '@/components/ui/skeleton'
import { useSelf } from '@/features/auth/api'
import { NoticeDialog } from '@/features/notice/notice-dialog'
import { LG_QUERY, useMediaQuery } from '@/hooks/use-media-query'
import { isAdmin, isRoot, useAuthUser } from '@/stores/auth-store'
import { cn } from '@/lib/utils'
import { Brand } from './brand'
import { Breadcrumbs } from './breadcrumbs'
import { SidebarContent } from './app-sidebar'
import { ConsoleHeader } from './console-header'
import { navGroups, visibleNav } from './nav'

export function ConsoleLayout() {
  const { t } = useTranslation('nav')
  const user = useAuthUser()
  const navigate = useNavigate()
  const desktop = useMediaQuery(LG_QUERY)
  const [drawerOpen, setDrawerOpen] = useState(true)
  const [sheetOpen, setSheetOpen] = useState(false)
  useSelf()

  useEffect(() => {
    if (!user) void navigate({ to: '/login', replace: true })
  }, [user, navigate])

  useEffect(() => {
    if (desktop) setSheetOpen(false)
  }, [desktop])

  const groups = useMemo(() => visibleNav(navGroups, isAdmin(user), isRoot(user)), [user])
  if (!user) return null

  return (
    <div className="min-h-svh bg-muted/40 dark:bg-background">
      <ConsoleHeader user={user} onToggleMenu={() => (desktop ? setDrawerOpen((o) => !o) : setSheetOpen(true))} />
      <div className="flex min-h-[calc(100svh-4rem)]">
        <aside data-testid="console-drawer" className={cn('hidden w-[260px] shrink-0 border-r bg-sidebar', drawerOpen && 'lg:block')}>
          <div className="sticky top-16 max-h-[calc(100svh-4rem)] overflow-y-auto">
            <SidebarContent user={user} />
          </div>
        </aside>
        <Sheet open={sheetOpen} onOpenChange={setSheetOpen}>
          <SheetContent side="left" className="w-[260px] gap-0 overflow-y-auto bg-sidebar p-0" data-testid="console-drawer-sheet">
            <div className="flex h-16 shrink-0 items-center border-b px-4 pr-12">
              <Brand onClick={() => setSheetOpen(false)} />
            </div>
            <SheetTitle className="sr-only">{t('mainNavigation')}</SheetTitle>
            <SheetDescription className="sr-only">{t('mainNavigation')}</SheetDescription>
            <SidebarContent user={user} onNavigate={() => setSheetOpen(false)} />
          </SheetContent>
        </Sheet>
        <main className="min-w-0 flex-1">
          <div className="mx-auto w-full max-w-[1400px] p-4 md:p-6">
            <Breadcrumbs groups={groups} />
            <Suspense fallback={<Skeleton className="h-64 w-full" />}>
              <Outlet />
            </Suspense>
          </div>
        </main>
      </div>
      <NoticeDialog />
    </div>
  )
}
