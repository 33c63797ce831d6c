/**
 * Columns of the plan admin table: name (with its description), price, duration, windows, a
 * published switch (saves the plan with the flag flipped), priority and the row actions.
 */
import { useMemo } from 'react'
import type { Column, ColumnDef } from '@tanstack/react-table'
import { Gift, Pencil, Trash2 } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { DataTableColumnHeader } from '@/components/data-table'
import { RowAction, RowActionsMenu } from '@/components/row-actions-menu'
import { DropdownMenuSeparator } from '@/components/ui/dropdown-menu'
import { Switch } from '@/components/ui/switch'
import { type Plan, useSavePlan } from '../api'
import { formatDuration, formatPrice, formatWindow } from '../format'
import { bodyOf } from '../schema'
import { usePlansDialog } from './plans-provider'

function PublishedSwitch({ plan }: { plan: Plan }) {
  const { t } = useTranslation('plans')
  const save = useSavePlan()
  return (
    <Switch
      checked={plan.published}
      disabled={save.isPending}
      onCheckedChange={(published) => save.mutate({ id: plan.id, body: { ...bodyOf(plan), published } })}
      aria-label={t('columns.publishLabel', { name: plan.name })}
      data-testid={`plan-published-${plan.id}`}
    />
  )
}

function RowActions({ plan }: { plan: Plan }) {
  const { t } = useTranslation('plans')
  const { open } = usePlansDialog()
  return (
    <RowActionsMenu label={t('actions.menu', { name: plan.name })} testId={`plan-actions-${plan.id}`} className="w-44">
      <RowAction icon={Pencil} label={t('actions.edit')} onSelect={() => open({ kind: 'edit', plan })} />
      <RowAction icon={Gift} label={t('actions.grant')} onSelect={() => open({ kind: 'grant', plan })} />
      <DropdownMenuSeparator />
      <RowAction icon={Trash2} label={t('actions.delete')} destructive onSelect={() => open({ kind: 'delete', plan })} />
    </RowActionsMenu>
  )
}

export function usePlansColumns(): ColumnDef<Plan>[] {
  const { t } = useTranslation('plans')
  return useMemo<ColumnDef<Plan>[]>(() => {
    const header =
      (title: string) =>
      ({ column }: { column: Column<Plan, unknown> }) => <DataTableColumnHeader column={column} title={title} />
    return [
      {
        id: 'name',
        accessorKey: 'name',
        header: header(t('fields.name')),
        enableHiding: false,
        meta: { title: t('fields.name') },
        cell: ({ row }) => (
          <div className="grid max-w-64 leading-tight">
            <div className="truncate font-medium" title={row.original.name}>
              {row.original.name}
            </div>
            {row.original.description && <span className="truncate text-xs text-muted-foreground">{row.original.description}</span>}
          </div>
        ),
      },
      {
        id: 'price',
        accessorKey: 'price',
        header: header(t('fields.price')),
        meta: { title: t('fields.price') },
        cell: ({ row }) => <span className="tabular-nums">{formatPrice(row.original.price)}</span>,
      },
      {
        id: 'duration',
        accessorFn: (p) => p.duration_unit,
        enableSorting: false,
        header: t('fields.duration'),
        meta: { title: t('fields.duration') },
        cell: ({ row }) => <span className="whitespace-nowrap">{formatDuration(t, row.original.duration_unit, row.original.duration_count)}</span>,
      },
      {
        id: 'windows',
        accessorFn: (p) => p.windows.length,
        enableSorting: false,
        header: t('fields.windows'),
        meta: { title: t('fields.windows') },
        cell: ({ row }) =>
          row.original.windows.length ? (
            <ul className="grid text-xs whitespace-nowrap tabular-nums">
              {row.original.windows.map((w, i) => (
                <li key={i}>{formatWindow(t, w)}</li>
              ))}
            </ul>
          ) : (
            <span className="text-muted-foreground">—</span>
          ),
      },
      {
        id: 'published',
        accessorKey: 'published',
        header: header(t('fields.published')),
        meta: { title: t('fields.published') },
        cell: ({ row }) => <PublishedSwitch plan={row.original} />,
      },
      {
        id: 'priority',
        accessorKey: 'priority',
        header: header(t('fields.priority')),
        meta: { title: t('fields.priority') },
        cell: ({ row }) => <span className="tabular-nums">{row.original.priority}</span>,
      },
      {
        id: 'actions',
        header: () => <span className="sr-only">{t('columns.actions')}</span>,
        enableSorting: false,
        enableHiding: false,
        meta: { className: 'w-10 text-right' },
        cell: ({ row }) => <RowActions plan={row.original} />,
      },
    ]
  }, [t])
}
