/**
 * The dashboard's recharts: consumption per day stacked by model (area), the per-model share of
 * consumption (donut), input/output tokens per day and requests per day by model (stacked bars).
 * Money goes through renderQuota, counts through renderNumber; colours come from the theme.
 */
import { useMemo } from 'react'
import { Area, AreaChart, Bar, BarChart, CartesianGrid, Cell, Legend, Pie, PieChart, Tooltip, XAxis, YAxis } from 'recharts'
import { useTranslation } from 'react-i18next'
import { CHART_MUTED, CHART_TICK, ChartContainer, ChartLegendContent, ChartTooltipContent, chartColor } from '@/components/ui/chart'
import { renderNumber } from '@/lib/format'
import type { UsageRow } from '../api'
import { quotaTick, renderQuotaFine } from '../format'
import { seriesByModel, tokensByDay, type ModelTotal, type Series } from '../data'
import { shortDate } from '../range'

const seriesColor = (s: Series) => (s.color < 0 ? CHART_MUTED : chartColor(s.color))

interface ChartProps {
  rows: UsageRow[]
  days: string[]
  /** Model names in colour order (largest consumption first). */
  palette: string[]
}

function useStacked({ rows, days, palette }: ChartProps, metric: 'quota' | 'request_count') {
  const { t } = useTranslation('dashboard')
  return useMemo(() => seriesByModel(rows, days, metric, palette, t('other')), [rows, days, metric, palette, t])
}

export function ConsumptionChart(props: ChartProps) {
  const { t } = useTranslation('dashboard')
  const { data, series } = useStacked(props, 'quota')
  return (
    <ChartContainer className="h-72" data-testid="chart-consumption">
      <AreaChart data={data} margin={{ top: 8, right: 8, left: 0, bottom: 0 }}>
        <defs>
          {series.map((s) => (
            <linearGradient key={s.key} id={`fill-${s.key}`} x1="0" y1="0" x2="0" y2="1">
              <stop offset="5%" stopColor={seriesColor(s)} stopOpacity={0.45} />
              <stop offset="95%" stopColor={seriesColor(s)} stopOpacity={0.05} />
            </linearGradient>
          ))}
        </defs>
        <CartesianGrid vertical={false} strokeDasharray="3 3" />
        <XAxis dataKey="date" tickFormatter={shortDate} tick={CHART_TICK} tickLine={false} axisLine={false} minTickGap={16} />
        <YAxis tickFormatter={quotaTick} tick={CHART_TICK} tickLine={false} axisLine={false} width={64} />
        <Tooltip content={<ChartTooltipContent valueFormatter={(v) => renderQuotaFine(v)} hideZero totalLabel={t('total')} />} />
        <Legend content={<ChartLegendContent />} />
        {series.map((s) => (
          <Area
            key={s.key}
            dataKey={s.key}
            name={s.name}
            type="monotone"
            stackId="quota"
            stroke={seriesColor(s)}
            fill={`url(#fill-${s.key})`}
            strokeWidth={2}
            isAnimationActive={false}
          />
        ))}
      </AreaChart>
    </ChartContainer>
  )
}

export function RequestsChart(props: ChartProps) {
  const { t } = useTranslation('dashboard')
  const { data, series } = useStacked(props, 'request_count')
  return (
    <ChartContainer data-testid="chart-requests">
      <BarChart data={data} margin={{ top: 8, right: 8, left: 0, bottom: 0 }}>
        <CartesianGrid vertical={false} strokeDasharray="3 3" />
        <XAxis dataKey="date" tickFormatter={shortDate} tick={CHART_TICK} tickLine={false} axisLine={false} minTickGap={16} />
        <YAxis allowDecimals={false} tickFormatter={renderNumber} tick={CHART_TICK} tickLine={false} axisLine={false} width={48} />
        <Tooltip content={<ChartTooltipContent hideZero totalLabel={t('total')} />} />
        <Legend content={<ChartLegendContent />} />
        {series.map((s, i) => (
          <Bar
            key={s.key}
            dataKey={s.key}
            name={s.name}
            stackId="requests"
            fill={seriesColor(s)}
            radius={i === series.length - 1 ? [4, 4, 0, 0] : 0}
            maxBarSize={36}
            isAnimationActive={false}
          />
        ))}
      </BarChart>
    </ChartContainer>
  )
}

export function TokensChart({ rows, days }: Omit<ChartProps, 'palette'>) {
  const { t } = useTranslation('dashboard')
  const data = useMemo(() => tokensByDay(rows, days), [rows, days])
  return (
    <ChartContainer data-testid="chart-tokens">
      <BarChart data={data} margin={{ top: 8, right: 8, left: 0, bottom: 0 }}>
        <CartesianGrid vertical={false} strokeDasharray="3 3" />
        <XAxis dataKey="date" tickFormatter={shortDate} tick={CHART_TICK} tickLine={false} axisLine={false} minTickGap={16} />
        <YAxis tickFormatter={renderNumber} tick={CHART_TICK} tickLine={false} axisLine={false} width={48} />
        <Tooltip content={<ChartTooltipContent totalLabel={t('total')} />} />
        <Legend content={<ChartLegendContent />} />
        <Bar dataKey="prompt_tokens" name={t('columns.promptTokens')} stackId="tokens" fill={chartColor(6)} maxBarSize={36} isAnimationActive={false} />
        <Bar
          dataKey="completion_tokens"
          name={t('columns.completionTokens')}
          stackId="tokens"
          fill={chartColor(0)}
          radius={[4, 4, 0, 0]}
          maxBarSize={36}
          isAnimationActive={false}
        />
      </BarChart>
    </ChartContainer>
  )
}

/** Share of consumption per model (the 7 largest, the rest as "other"). */
export function ModelShareChart({ totals }: { totals: ModelTotal[] }) {
  const { t } = useTranslation('dashboard')
  const slices = useMemo(() => {
    const positive = totals.filter((m) => m.quota > 0)
    const own = positive.length > 7 ? positive.slice(0, 6) : positive
    const rest = positive.slice(own.length).reduce((sum, m) => sum + m.quota, 0)
    const list = own.map((m, i) => ({ name: m.model_name, value: m.quota, fill: chartColor(i) }))
    if (rest > 0) list.push({ name: t('other'), value: rest, fill: CHART_MUTED })
    return list
  }, [totals, t])
  const total = slices.reduce((s, x) => s + x.value, 0)
  return (
    <ChartContainer className="h-72" data-testid="chart-model-share">
      <PieChart>
        <Tooltip content={<ChartTooltipContent valueFormatter={(v) => `${renderQuotaFine(v)} · ${((v / (total || 1)) * 100).toFixed(1)}%`} />} />
        <Legend content={<ChartLegendContent />} />
        <Pie data={slices} dataKey="value" nameKey="name" innerRadius="55%" outerRadius="85%" paddingAngle={1} strokeWidth={2} isAnimationActive={false}>
          {slices.map((s) => (
            <Cell key={s.name} fill={s.fill} />
          ))}
        </Pie>
      </PieChart>
    </ChartContainer>
  )
}
