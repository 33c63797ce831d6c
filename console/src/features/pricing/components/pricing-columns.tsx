/**
 * Columns of the single view: one row per model — name, supplier, type, input and output
 * multipliers with their dollar equivalents, extra ratios, the lock toggle and row actions.
 */
import { useMemo } from 'react'
import type { ColumnDef } from '@tanstack/react-table'
import { Lock, LockOpen, Pencil, Trash2 } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { DataTableColumnHeader, selectionColumn } from '@/components/data-table'
import { cn } from '@/lib/utils'
import { useToggleLock, type Price } from '../api'
import { IconAction } from './icon-action'
import { priceValueColumns, useSupplierNames } from './price-cells'
import { usePricing } from './pricing-provider'

function LockToggle({ price }: { price: Price }) {
  const { t } = useTranslation('pricing')
  const toggle = useToggleLock()
  const label = price.locked ? t('actions.unlock', { model: price.model }) : t('actions.lock', { model: price.model })
  return (
    <IconAction
      label={label}
      disabled={toggle.isPending}
      onClick={() => toggle.mutate(price)}
      data-testid="price-lock"
      data-locked={price.locked}
      className={cn(price.locked ? 'text-warning hover:text-warning' : 'text-muted-foreground')}
    >
      {price.locked ? <Lock /> : <LockOpen />}
    </IconAction>
  )
}

export function usePriceColumns(): ColumnDef<Price>[] {
  const { t } = useTranslation('pricing')
  const { t: tt } = useTranslation('table')
  const supplier = useSupplierNames()
  const { open } = usePricing()
  return useMemo<ColumnDef<Price>[]>(
    () => [
      selectionColumn<Price>({ all: tt('selectAll'), row: tt('selectRow') }),
      {
        id: 'model',
        accessorKey: 'model',
        meta: { title: t('fields.model') },
        enableHiding: false,
        header: ({ column }) => <DataTableColumnHeader column={column} title={t('fields.model')} />,
        cell: ({ row }) => <span className="font-mono text-[13px] font-medium break-all">{row.original.model}</span>,
      },
      {
        id: 'channel_type',
        accessorFn: (p) => p.channel_type,
        meta: { title: t('fields.supplier') },
        header: ({ column }) => <DataTableColumnHeader column={column} title={t('fields.supplier')} />,
        cell: ({ row }) => <span className="whitespace-nowrap">{supplier(row.original.channel_type)}</span>,
      },
      ...priceValueColumns<Price>(t),
      {
        id: 'locked',
        accessorFn: (p) => p.locked,
        meta: { title: t('fields.locked'), className: 'w-16' },
        header: ({ column }) => <DataTableColumnHeader column={column} title={t('fields.locked')} />,
        cell: ({ row }) => <LockToggle price={row.original} />,
      },
      {
        id: 'actions',
        enableSorting: false,
        enableHiding: false,
        meta: { className: 'w-20 text-right' },
        header: () => <span className="sr-only">{tt('actions')}</span>,
        cell: ({ row }) => (
          <div className="flex justify-end">
            <IconAction label={t('actions.edit', { model: row.original.model })} onClick={() => open({ kind: 'price', price: row.original })}>
              <Pencil />
            </IconAction>
            <IconAction
              label={t('actions.delete', { model: row.original.model })}
              className="text-destructive hover:text-destructive"
              onClick={() => open({ kind: 'delete-prices', models: [row.original.model] })}
            >
              <Trash2 />
            </IconAction>
          </div>
        ),
      },
    ],
    [t, tt, supplier, open]
  )
}
