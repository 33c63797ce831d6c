/**
 * shadcn-style chart kit over recharts: a sized, responsive container that paints axes, grid,
 * cursor and pie strokes with the theme tokens (so light and dark need no chart-specific code),
 * tooltip and legend contents in the console's look, and the series palette (`--chart-1…8`).
 */
import type { ComponentProps, ReactElement, ReactNode } from 'react'
import { ResponsiveContainer, type LegendPayload, type TooltipPayloadEntry } from 'recharts'
import { cn } from '@/lib/utils'

export const CHART_PALETTE_SIZE = 8

/** The colour of the i-th series (cycles through the eight theme hues). */
export const chartColor = (index: number) => `var(--chart-${(index % CHART_PALETTE_SIZE) + 1})`

/** Colour of a catch-all series ("other"). */
export const CHART_MUTED = 'var(--muted-foreground)'

/** Axis tick style of every chart (the SVG text fill follows the theme). */
export const CHART_TICK = { fill: 'var(--muted-foreground)', fontSize: 12 }

export function ChartContainer({ className, children, ...props }: Omit<ComponentProps<'div'>, 'children'> & { children: ReactElement }) {
  return (
    <div
      data-slot="chart"
      className={cn(
        'h-64 w-full min-w-0 text-xs',
        '[&_.recharts-cartesian-grid_line]:stroke-border [&_.recharts-cartesian-axis-line]:stroke-border [&_.recharts-cartesian-axis-tick-line]:stroke-border',
        '[&_.recharts-curve.recharts-tooltip-cursor]:stroke-border [&_.recharts-rectangle.recharts-tooltip-cursor]:fill-muted/60',
        '[&_.recharts-pie-sector_path]:stroke-card [&_.recharts-sector]:outline-none [&_.recharts-surface]:outline-none [&_.recharts-layer]:outline-none',
        className
      )}
      {...props}
    >
      <ResponsiveContainer width="100%" height="100%" initialDimension={{ width: 320, height: 200 }}>
        {children}
      </ResponsiveContainer>
    </div>
  )
}

export interface ChartTooltipContentProps {
  active?: boolean
  payload?: ReadonlyArray<TooltipPayloadEntry>
  label?: ReactNode
  /** Formats each value (e.g. renderQuota for money). */
  valueFormatter?: (value: number) => string
  /** Formats a value knowing its series name (charts mixing units); wins over valueFormatter. */
  formatItem?: (value: number, name: string) => string
  labelFormatter?: (label: string) => ReactNode
  /** Skip series whose value is 0 (stacked charts with many series). */
  hideZero?: boolean
  /** Label of a total row summing the shown values. */
  totalLabel?: string
}

export function ChartTooltipContent({ active, payload, label, valueFormatter, formatItem, labelFormatter, hideZero, totalLabel }: ChartTooltipContentProps) {
  if (!active || !payload?.length) return null
  const format = valueFormatter ?? ((v: number) => v.toLocaleString())
  const shown = payload.filter((item) => !item.hide && item.value != null)
  // A day with nothing at all still lists its (zero) series rather than an empty box.
  const nonZero = hideZero ? shown.filter((item) => Number(item.value) !== 0) : shown
  const items = nonZero.length ? nonZero : shown
  const total = items.reduce((sum, item) => sum + (Number(item.value) || 0), 0)
  const heading = label !== undefined && label !== '' ? (labelFormatter ? labelFormatter(String(label)) : label) : null
  return (
    <div className="grid min-w-36 max-w-72 gap-1.5 rounded-lg border bg-popover px-3 py-2 text-xs text-popover-foreground shadow-lg">
      {heading !== null && <div className="font-medium">{heading}</div>}
      <div className="grid gap-1">
        {items.map((item, i) => (
          <div key={`${String(item.dataKey ?? item.name)}-${i}`} className="flex items-center gap-2">
            <span className="size-2.5 shrink-0 rounded-[3px]" style={{ background: item.color ?? (item.payload as { fill?: string } | undefined)?.fill }} />
            <span className="min-w-0 flex-1 truncate text-muted-foreground">{item.name}</span>
            <span className="font-mono font-medium tabular-nums">{formatItem ? formatItem(Number(item.value) || 0, String(item.name)) : format(Number(item.value) || 0)}</span>
          </div>
        ))}
      </div>
      {totalLabel && items.length > 1 && (
        <div className="flex items-center justify-between gap-2 border-t pt-1.5">
          <span className="text-muted-foreground">{totalLabel}</span>
          <span className="font-mono font-medium tabular-nums">{format(total)}</span>
        </div>
      )}
    </div>
  )
}

export function ChartLegendContent({ payload, className }: { payload?: ReadonlyArray<LegendPayload>; className?: string }) {
  if (!payload?.length) return null
  return (
    <div className={cn('flex flex-wrap items-center justify-center gap-x-4 gap-y-1 pt-3 text-xs', className)}>
      {payload
        .filter((item) => item.type !== 'none')
        .map((item, i) => (
          <div key={`${String(item.value)}-${i}`} className="flex max-w-48 items-center gap-1.5 text-muted-foreground">
            <span className="size-2.5 shrink-0 rounded-[3px]" style={{ background: item.color }} />
            <span className="truncate">{item.value}</span>
          </div>
        ))}
    </div>
  )
}
