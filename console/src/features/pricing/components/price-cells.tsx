/**
 * Small pieces that show a price the same way everywhere on the pricing page: a multiplier with
 * its dollar equivalent ($ per 1M tokens or $ per call), the price type badge, extra-ratio badges
 * and supplier names from GET /api/channel/types.
 */
import { useMemo } from 'react'
import { useQuery } from '@tanstack/react-query'
import type { ColumnDef } from '@tanstack/react-table'
import type { TFunction } from 'i18next'
import { useTranslation } from 'react-i18next'
import { DataTableColumnHeader } from '@/components/data-table'
import { Badge } from '@/components/ui/badge'
import { channelTypesQueryOptions, type ExtraRatios } from '../api'
import { formatRatio, formatUsd, ratioToUsd, type PriceType } from '../units'

/** "$2.50 / 1M tokens" or "$0.04 / call" for a ratio. */
export function useUsdLabel() {
  const { t } = useTranslation('pricing')
  return (type: PriceType, ratio: number) =>
    type === 'times' ? t('units.perCall', { price: formatUsd(ratioToUsd(type, ratio)) }) : t('units.per1M', { price: formatUsd(ratioToUsd(type, ratio)) })
}

export function PriceCell({ type, ratio, side }: { type: PriceType; ratio: number; side: 'input' | 'output' }) {
  const { t } = useTranslation('pricing')
  const usd = useUsdLabel()
  if (type === 'times' && side === 'output') {
    return (
      <span className="text-muted-foreground" title={t('units.outputUnused')}>
        —
      </span>
    )
  }
  return (
    <div className="grid leading-tight">
      <span className="font-medium tabular-nums">{formatRatio(ratio)}</span>
      <span className="text-xs text-muted-foreground tabular-nums">{usd(type, ratio)}</span>
    </div>
  )
}

export function TypeBadge({ type }: { type: PriceType }) {
  const { t } = useTranslation('pricing')
  return <Badge variant={type === 'times' ? 'outline' : 'secondary'}>{t(`types.${type}`)}</Badge>
}

export function ExtraRatioBadges({ ratios }: { ratios: ExtraRatios | null }) {
  const { t } = useTranslation('pricing')
  const entries = Object.entries(ratios ?? {})
  if (entries.length === 0) return <span className="text-muted-foreground">—</span>
  return (
    <div className="flex max-w-64 flex-wrap gap-1">
      {entries.map(([kind, ratio]) => (
        <Badge key={kind} variant="outline" className="font-normal" title={kind}>
          {t(`extra.kinds.${kind}`, { defaultValue: kind })} ×{formatRatio(ratio)}
        </Badge>
      ))}
    </div>
  )
}

/** id → supplier name; unknown ids read "#id". */
export function useSupplierNames() {
  const { data } = useQuery(channelTypesQueryOptions)
  return useMemo(() => {
    const names = new Map((data ?? []).map((c) => [c.id, c.name]))
    return (id: number) => names.get(id) ?? `#${id}`
  }, [data])
}

type PricedRow = { type: PriceType; input: number; output: number; extra_ratios: ExtraRatios | null }

/** The type, input, output and extra-ratio columns, shared by the single and the merged view. */
export function priceValueColumns<T extends PricedRow>(t: TFunction<'pricing'>): ColumnDef<T>[] {
  const ratio = (side: 'input' | 'output'): ColumnDef<T> => ({
    id: side,
    accessorFn: (p) => p[side],
    meta: { title: t(`fields.${side}`), className: 'min-w-28' },
    header: ({ column }) => <DataTableColumnHeader column={column} title={t(`fields.${side}`)} />,
    cell: ({ row }) => <PriceCell type={row.original.type} ratio={row.original[side]} side={side} />,
  })
  return [
    {
      id: 'type',
      accessorFn: (p) => p.type,
      meta: { title: t('fields.type') },
      header: ({ column }) => <DataTableColumnHeader column={column} title={t('fields.type')} />,
      cell: ({ row }) => <TypeBadge type={row.original.type} />,
    },
    ratio('input'),
    ratio('output'),
    {
      id: 'extra_ratios',
      enableSorting: false,
      meta: { title: t('fields.extraRatios') },
      header: t('fields.extraRatios'),
      cell: ({ row }) => <ExtraRatioBadges ratios={row.original.extra_ratios} />,
    },
  ]
}
