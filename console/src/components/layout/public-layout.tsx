/** Layout of the public pages: top bar, content, footer. */
import { Outlet } from '@tanstack/react-router'
import { PublicHeader } from './public-header'
import { SiteFooter } from './site-footer'

export function PublicLayout() {
  return (
    <div className="flex min-h-svh flex-col">
      <PublicHeader />
      <main className="flex flex-1 flex-col">
        <Outlet />
      </main>
      <SiteFooter />
    </div>
  )
}
