/**
 * Columns of the model price list: model name with a copy button, supplier, type, and what the
 * user pays — $ per 1M tokens for input and output, or $ per call, with the long-context tier's
 * prices and the fee per request under them — or a "not priced" badge.
 */
import { useMemo } from 'react'
import type { ColumnDef } from '@tanstack/react-table'
import { Copy } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Badge } from '@/components/ui/badge'
import { DataTableColumnHeader } from '@/components/data-table'
import { copyText } from '@/lib/clipboard'
import { IconAction } from '@/features/pricing/components/icon-action'
import { formatUsd, ratioToUsd } from '@/features/pricing/units'
import type { AvailableModel } from '../api'

function Price({ row, side }: { row: AvailableModel; side: 'input' | 'output' }) {
  const { t } = useTranslation('model-prices')
  const ratio = row[side]
  if (!row.priced || row.type === null || ratio === null) return <span className="text-muted-foreground">—</span>
  if (row.type === 'times') {
    if (side === 'output') return <span className="text-muted-foreground">—</span>
    return (
      <span className="tabular-nums">
        <span className="font-medium">{formatUsd(ratioToUsd('times', ratio))}</span>
        <span className="text-muted-foreground"> {t('perCall')}</span>
      </span>
    )
  }
  return (
    <span className="tabular-nums">
      <span className="font-medium">{formatUsd(ratioToUsd('tokens', ratio))}</span>
      <span className="text-muted-foreground"> {t('per1M')}</span>
    </span>
  )
}

/** The long-context tier ($ per 1M above the threshold) and the fee per request, when the price has them. */
function PriceTerms({ row }: { row: AvailableModel }) {
  const { t } = useTranslation('model-prices')
  if (!row.priced || (!row.tier && !row.fee)) return null
  return (
    <div className="text-xs text-muted-foreground tabular-nums" data-testid="model-price-terms">
      {row.tier && row.type === 'tokens' && (
        <div>
          {t('tierAbove', {
            threshold: row.tier.threshold_tokens.toLocaleString(),
            input: formatUsd(ratioToUsd('tokens', row.tier.input)),
            output: formatUsd(ratioToUsd('tokens', row.tier.output)),
          })}
        </div>
      )}
      {row.fee > 0 && <div>{t('fee', { fee: formatUsd(ratioToUsd('times', row.fee / 1000)) })}</div>}
    </div>
  )
}

export function useModelPriceColumns(): ColumnDef<AvailableModel>[] {
  const { t } = useTranslation('model-prices')
  return useMemo<ColumnDef<AvailableModel>[]>(
    () => [
      {
        id: 'model',
        accessorKey: 'model',
        enableHiding: false,
        meta: { title: t('columns.model') },
        header: ({ column }) => <DataTableColumnHeader column={column} title={t('columns.model')} />,
        cell: ({ row }) => (
          <div className="flex items-center gap-1">
            <span className="font-mono text-[13px] font-medium">{row.original.model}</span>
            <IconAction label={t('copy', { model: row.original.model })} className="size-7 text-muted-foreground" onClick={() => copyText(row.original.model)}>
              <Copy className="size-3.5" />
            </IconAction>
          </div>
        ),
      },
      {
        id: 'owned_by',
        accessorKey: 'owned_by',
        meta: { title: t('columns.supplier') },
        header: ({ column }) => <DataTableColumnHeader column={column} title={t('columns.supplier')} />,
        cell: ({ row }) => row.original.owned_by,
      },
      {
        id: 'type',
        accessorKey: 'type',
        meta: { title: t('columns.type') },
        header: ({ column }) => <DataTableColumnHeader column={column} title={t('columns.type')} />,
        cell: ({ row }) =>
          row.original.priced && row.original.type ? (
            <Badge variant={row.original.type === 'times' ? 'outline' : 'secondary'}>{t(`types.${row.original.type}`)}</Badge>
          ) : (
            <Badge variant="outline" className="border-warning/50 text-warning" data-testid="not-priced">
              {t('notPriced')}
            </Badge>
          ),
      },
      {
        id: 'input',
        accessorKey: 'input',
        meta: { title: t('columns.input') },
        header: ({ column }) => <DataTableColumnHeader column={column} title={t('columns.input')} />,
        cell: ({ row }) => (
          <>
            <Price row={row.original} side="input" />
            <PriceTerms row={row.original} />
          </>
        ),
      },
      {
        id: 'output',
        accessorKey: 'output',
        meta: { title: t('columns.output') },
        header: ({ column }) => <DataTableColumnHeader column={column} title={t('columns.output')} />,
        cell: ({ row }) => <Price row={row.original} side="output" />,
      },
    ],
    [t]
  )
}
