/**
 * The Groups tab: what a group ratio does, and the user groups (GET /api/user_group/) with their
 * ratio, API rate, public flag and an enable switch (PUT /api/user_group/enable/:id); create, edit
 * and delete open dialogs. List state (page, order, keyword) lives in the URL like the price views.
 */
import { useMemo } from 'react'
import { useQuery } from '@tanstack/react-query'
import type { ColumnDef } from '@tanstack/react-table'
import { Info, Pencil, Plus, Trash2 } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Switch } from '@/components/ui/switch'
import { DataTable, DataTableColumnHeader, DataTablePagination, DataTableToolbar, useServerTable } from '@/components/data-table'
import type { UserGroup } from '@contract/groups'
import { groupsQueryOptions, useToggleGroup } from '../api'
import { includesText, pageOf } from '../client-list'
import { formatRatio, formatUsd, ratioToUsd } from '../units'
import { IconAction } from './icon-action'
import { usePricingSearch } from './pricing-filters'
import { usePricing } from './pricing-provider'

function EnableSwitch({ group }: { group: UserGroup }) {
  const { t } = useTranslation('pricing')
  const toggle = useToggleGroup()
  return <Switch checked={group.enable} disabled={toggle.isPending} onCheckedChange={() => toggle.mutate(group.id)} aria-label={t('groups.enableLabel', { name: group.name })} />
}

function useGroupColumns(): ColumnDef<UserGroup>[] {
  const { t } = useTranslation('pricing')
  const { t: tt } = useTranslation('table')
  const { open } = usePricing()
  return useMemo<ColumnDef<UserGroup>[]>(
    () => [
      {
        id: 'symbol',
        accessorKey: 'symbol',
        enableHiding: false,
        meta: { title: t('groups.symbol') },
        header: ({ column }) => <DataTableColumnHeader column={column} title={t('groups.symbol')} />,
        cell: ({ row }) => <span className="font-mono text-[13px] font-medium">{row.original.symbol}</span>,
      },
      {
        id: 'name',
        accessorKey: 'name',
        meta: { title: t('groups.name') },
        header: ({ column }) => <DataTableColumnHeader column={column} title={t('groups.name')} />,
        cell: ({ row }) => row.original.name,
      },
      {
        id: 'ratio',
        accessorKey: 'ratio',
        meta: { title: t('groups.ratio') },
        header: ({ column }) => <DataTableColumnHeader column={column} title={t('groups.ratio')} />,
        cell: ({ row }) => (
          <div className="grid leading-tight">
            <span className="font-medium tabular-nums">×{formatRatio(row.original.ratio)}</span>
            <span className="text-xs text-muted-foreground">{t('groups.ratioExample', { price: formatUsd(ratioToUsd('tokens', row.original.ratio)) })}</span>
          </div>
        ),
      },
      {
        id: 'api_rate',
        accessorKey: 'api_rate',
        meta: { title: t('groups.apiRate') },
        header: ({ column }) => <DataTableColumnHeader column={column} title={t('groups.apiRate')} />,
        cell: ({ row }) => <span className="tabular-nums">{t('groups.rpm', { count: row.original.api_rate })}</span>,
      },
      {
        id: 'public',
        accessorKey: 'public',
        meta: { title: t('groups.public') },
        header: ({ column }) => <DataTableColumnHeader column={column} title={t('groups.public')} />,
        cell: ({ row }) => (row.original.public ? <Badge variant="success">{t('groups.publicYes')}</Badge> : <Badge variant="outline">{t('groups.publicNo')}</Badge>),
      },
      {
        id: 'enable',
        accessorKey: 'enable',
        meta: { title: t('groups.enable') },
        header: ({ column }) => <DataTableColumnHeader column={column} title={t('groups.enable')} />,
        cell: ({ row }) => <EnableSwitch group={row.original} />,
      },
      {
        id: 'actions',
        enableSorting: false,
        enableHiding: false,
        meta: { className: 'w-20 text-right' },
        header: () => <span className="sr-only">{tt('actions')}</span>,
        cell: ({ row }) => (
          <div className="flex justify-end">
            <IconAction label={t('groups.edit', { name: row.original.name })} onClick={() => open({ kind: 'group', group: row.original })}>
              <Pencil />
            </IconAction>
            <IconAction
              label={t('groups.delete', { name: row.original.name })}
              className="text-destructive hover:text-destructive"
              onClick={() => open({ kind: 'delete-group', group: row.original })}
            >
              <Trash2 />
            </IconAction>
          </div>
        ),
      },
    ],
    [t, tt, open]
  )
}

export function GroupsTab() {
  const { t } = useTranslation('pricing')
  const { search, setSearch } = usePricingSearch()
  const { open } = usePricing()
  const { data, isLoading } = useQuery(groupsQueryOptions)
  const columns = useGroupColumns()
  const filtered = useMemo(() => (data ?? []).filter((g) => includesText(`${g.symbol}\n${g.name}`, search.keyword)), [data, search.keyword])
  const page = pageOf(filtered, search, {
    symbol: (g) => g.symbol,
    name: (g) => g.name,
    ratio: (g) => g.ratio,
    api_rate: (g) => g.api_rate,
    public: (g) => g.public,
    enable: (g) => g.enable,
  })
  const table = useServerTable({ data: page.rows, columns, total: page.total, search: { ...search, p: page.page }, setSearch, getRowId: (g) => String(g.id) })
  return (
    <div className="flex flex-col gap-2">
      <Alert>
        <Info />
        <AlertTitle>{t('groups.explainTitle')}</AlertTitle>
        <AlertDescription>
          <p>{t('groups.explainRatio')}</p>
          <p>{t('groups.explainSync')}</p>
        </AlertDescription>
      </Alert>
      <div>
        <DataTableToolbar
          table={table}
          search={{ value: search.keyword, onChange: (keyword) => setSearch({ keyword, p: undefined }), placeholder: t('groups.search') }}
          onReset={() => setSearch({ keyword: undefined, p: undefined })}
          actions={
            <Button size="sm" className="h-9" onClick={() => open({ kind: 'group' })} data-testid="group-new">
              <Plus />
              {t('groups.new')}
            </Button>
          }
        />
        <DataTable table={table} loading={isLoading} empty={data?.length ? t('empty.filtered') : t('groups.empty')} />
        <DataTablePagination table={table} />
      </div>
    </div>
  )
}
