/**
 * /panel/channel (admin only): the routing help panel, the list of
 * every channel or, in the by-tag view, of one tag's channels with the tag-wide actions, and the dialogs. The URL search
 * params hold the page, sort, filters and view; `?create=` opens the create sheet (blank or
 * prefilled for the local mock) once and leaves the URL.
 */
import { useCallback, useEffect, useRef } from 'react'
import { getRouteApi } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { Tabs, TabsList, TabsTrigger } from '@/components/ui/tabs'
import { PageHeader } from '@/components/page-header'
import { ChannelsDialogs } from './components/channels-dialogs'
import { ChannelsHelp } from './components/channels-help'
import { ChannelsPrimaryButtons } from './components/channels-primary-buttons'
import { ChannelsProvider, useChannelsDialog } from './components/channels-provider'
import { ChannelsTable } from './components/channels-table'
import { ChannelsTagPicker } from './components/channels-tag-picker'
import { ChannelsTagActions } from './components/channels-tag-actions'
import { localMockPreset } from './local-mock'
import type { ChannelsSearch } from './schema'

const route = getRouteApi('/panel/channel')

export function Channels() {
  const { t } = useTranslation('channels')
  const search = route.useSearch()
  const navigate = route.useNavigate()
  const setSearch = useCallback((patch: Partial<ChannelsSearch>) => void navigate({ search: (prev) => ({ ...prev, ...patch }), replace: true }), [navigate])
  const tagView = search.view === 'tag'
  return (
    <ChannelsProvider>
      <PageHeader title={t('title')} description={t('description')} actions={<ChannelsPrimaryButtons />} />
      <ChannelsHelp />
      <Tabs value={tagView ? 'tag' : 'all'} onValueChange={(v) => setSearch({ view: v === 'tag' ? 'tag' : undefined, tag: undefined, p: undefined })}>
        <TabsList>
          <TabsTrigger value="all" className="px-4">
            {t('views.all')}
          </TabsTrigger>
          <TabsTrigger value="tag" className="px-4" data-testid="channel-view-tag">
            {t('views.tag')}
          </TabsTrigger>
        </TabsList>
      </Tabs>
      {tagView && <ChannelsTagPicker value={search.tag} onChange={(tag) => setSearch({ tag, p: undefined })} />}
      {tagView && search.tag && <ChannelsTagActions key={search.tag} tag={search.tag} />}
      {!tagView || search.tag ? (
        <ChannelsTable key={tagView ? 'tag' : 'all'} search={search} setSearch={setSearch} tagView={tagView} />
      ) : (
        <p className="rounded-lg border border-dashed p-6 text-center text-sm text-muted-foreground">{t('tags.pick')}</p>
      )}
      <ChannelsDialogs />
      <CreateFromSearch />
    </ChannelsProvider>
  )
}

/** `?create=blank|local-mock` (links from the dashboard): opens the create sheet, then drops the param. */
function CreateFromSearch() {
  const { create } = route.useSearch()
  const navigate = route.useNavigate()
  const { open } = useChannelsDialog()
  // `open` changes with every dialog state; the ref keeps one link from opening the sheet twice.
  const handled = useRef(false)
  useEffect(() => {
    if (!create) {
      handled.current = false
      return
    }
    if (handled.current) return
    handled.current = true
    open({ kind: 'create', preset: create === 'local-mock' ? localMockPreset : undefined })
    void navigate({ search: (prev) => ({ ...prev, create: undefined }), replace: true })
  }, [create, open, navigate])
  return null
}
