/**
 * The tokens list: the signed-in user's own keys (searchable by name, sortable), or — for admins
 * in all-users mode — the search across users by user ID, token ID and name. Server-paginated,
 * state in the URL.
 */
import { useEffect, useMemo, useState } from 'react'
import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { Input } from '@/components/ui/input'
import { DataTable, DataTablePagination, DataTableToolbar, useServerTable } from '@/components/data-table'
import { useAuthUser } from '@/stores/auth-store'
import { visibleChatLinks } from '@/features/jump/chat-links'
import { useSiteInfo } from '@/features/site/api'
import { adminTokensQueryOptions, tokensQueryOptions } from '../api'
import type { TokensSearch } from '../schema'
import { tokenColumns } from './tokens-columns'
import { TokensEmpty } from './tokens-empty'
import { useTokensDialog } from './tokens-provider'

/** A numeric filter box (user ID, token ID) written to the URL after a pause. */
function IdFilter({ label, value, onChange }: { label: string; value: number | undefined; onChange: (v: number | undefined) => void }) {
  const [text, setText] = useState(value === undefined ? '' : String(value))
  useEffect(() => setText(value === undefined ? '' : String(value)), [value])
  useEffect(() => {
    const next = /^\d+$/.test(text.trim()) && Number(text) > 0 ? Number(text) : undefined
    if (next === value) return
    const timer = setTimeout(() => onChange(next), 350)
    return () => clearTimeout(timer)
  }, [text, value, onChange])
  return <Input value={text} inputMode="numeric" onChange={(e) => setText(e.target.value)} placeholder={label} aria-label={label} className="h-9 w-full sm:w-32" />
}

export function TokensTable({ search, setSearch }: { search: TokensSearch; setSearch: (patch: Partial<TokensSearch>) => void }) {
  const { t } = useTranslation('tokens')
  const { t: tableT } = useTranslation('table')
  const { admin, open } = useTokensDialog()
  const me = useAuthUser()
  const { chat_links } = useSiteInfo()
  const chatLinks = useMemo(() => visibleChatLinks(chat_links), [chat_links])
  const { p, page_size, keyword } = search
  const own = useQuery({ ...tokensQueryOptions({ p, page_size, keyword, order: search.order }), enabled: !admin })
  const all = useQuery({ ...adminTokensQueryOptions({ p, page_size, keyword, user_id: search.user_id, token_id: search.token_id }), enabled: admin })
  const list = admin ? all : own
  const columns = useMemo(
    () => tokenColumns({ t, tableT, admin, myId: me?.id, isRoot: (me?.role ?? 0) >= 100, chatLinks, open }),
    [t, tableT, admin, me?.id, me?.role, chatLinks, open]
  )
  const table = useServerTable({
    data: list.data?.data,
    columns,
    total: list.data?.total_count ?? 0,
    search,
    setSearch,
    getRowId: (row) => String(row.id),
  })
  const onUserId = useMemo(() => (user_id: number | undefined) => setSearch({ user_id, p: undefined }), [setSearch])
  const onTokenId = useMemo(() => (token_id: number | undefined) => setSearch({ token_id, p: undefined }), [setSearch])

  // A user without any key yet gets the guide instead of an empty table.
  if (!admin && !keyword && list.data?.total_count === 0 && !list.isPlaceholderData) return <TokensEmpty />

  return (
    <div>
      <DataTableToolbar
        table={table}
        search={{ value: keyword, onChange: (value) => setSearch({ keyword: value, p: undefined }), placeholder: t('searchPlaceholder') }}
        filtered={admin && (search.user_id !== undefined || search.token_id !== undefined)}
        onReset={() => setSearch({ keyword: undefined, user_id: undefined, token_id: undefined, p: undefined })}
      >
        {admin && (
          <>
            <IdFilter label={t('filters.userId')} value={search.user_id} onChange={onUserId} />
            <IdFilter label={t('filters.tokenId')} value={search.token_id} onChange={onTokenId} />
          </>
        )}
      </DataTableToolbar>
      <DataTable table={table} loading={list.isPending} empty={keyword || search.user_id || search.token_id ? t('emptySearch') : admin ? t('emptyAll') : t('empty')} />
      <DataTablePagination table={table} />
    </div>
  )
}
