/**
 * Time-series charts of the analytics page: consumption (area), input/output tokens (stacked
 * bars), requests with their average duration (bars + line on a second axis), registrations
 * direct vs invited (stacked bars) and redemption usage (codes redeemed + quota redeemed).
 */
import { Area, AreaChart, Bar, BarChart, CartesianGrid, ComposedChart, Legend, Line, Tooltip, XAxis, YAxis } from 'recharts'
import { useTranslation } from 'react-i18next'
import { CHART_TICK, ChartContainer, ChartLegendContent, ChartTooltipContent, chartColor } from '@/components/ui/chart'
import { renderNumber } from '@/lib/format'
import { quotaTick, renderQuotaFine } from '@/features/dashboard/format'
import { formatDuration } from '@/features/dashboard/data'
import { shortDate } from '@/features/dashboard/range'
import type { ShapedPeriod } from '../data'

const MARGIN = { top: 8, right: 8, left: 0, bottom: 0 }
const xAxis = <XAxis dataKey="date" tickFormatter={shortDate} tick={CHART_TICK} tickLine={false} axisLine={false} minTickGap={16} />
const grid = <CartesianGrid vertical={false} strokeDasharray="3 3" />

export function ConsumptionTrend({ data }: { data: ShapedPeriod['daily'] }) {
  const { t } = useTranslation('analytics')
  return (
    <ChartContainer data-testid="chart-consumption">
      <AreaChart data={data} margin={MARGIN}>
        <defs>
          <linearGradient id="analytics-quota" x1="0" y1="0" x2="0" y2="1">
            <stop offset="5%" stopColor={chartColor(0)} stopOpacity={0.45} />
            <stop offset="95%" stopColor={chartColor(0)} stopOpacity={0.05} />
          </linearGradient>
        </defs>
        {grid}
        {xAxis}
        <YAxis tickFormatter={quotaTick} tick={CHART_TICK} tickLine={false} axisLine={false} width={64} />
        <Tooltip content={<ChartTooltipContent valueFormatter={renderQuotaFine} />} />
        <Area dataKey="quota" name={t('series.quota')} type="monotone" stroke={chartColor(0)} fill="url(#analytics-quota)" strokeWidth={2} isAnimationActive={false} />
      </AreaChart>
    </ChartContainer>
  )
}

export function TokensTrend({ data }: { data: ShapedPeriod['daily'] }) {
  const { t } = useTranslation('analytics')
  return (
    <ChartContainer data-testid="chart-tokens">
      <BarChart data={data} margin={MARGIN}>
        {grid}
        {xAxis}
        <YAxis tickFormatter={renderNumber} tick={CHART_TICK} tickLine={false} axisLine={false} width={48} />
        <Tooltip content={<ChartTooltipContent valueFormatter={(v) => v.toLocaleString()} totalLabel={t('series.total')} />} />
        <Legend content={<ChartLegendContent />} />
        <Bar dataKey="prompt_tokens" name={t('series.promptTokens')} stackId="t" fill={chartColor(6)} maxBarSize={32} isAnimationActive={false} />
        <Bar dataKey="completion_tokens" name={t('series.completionTokens')} stackId="t" fill={chartColor(0)} radius={[4, 4, 0, 0]} maxBarSize={32} isAnimationActive={false} />
      </BarChart>
    </ChartContainer>
  )
}

/** Requests per day (bars) and the average duration of a request (line, right axis). */
export function RequestsTrend({ data }: { data: ShapedPeriod['daily'] }) {
  const { t } = useTranslation('analytics')
  const requestsName = t('series.requests')
  return (
    <ChartContainer data-testid="chart-requests">
      <ComposedChart data={data} margin={MARGIN}>
        {grid}
        {xAxis}
        <YAxis yAxisId="count" allowDecimals={false} tickFormatter={renderNumber} tick={CHART_TICK} tickLine={false} axisLine={false} width={48} />
        <YAxis yAxisId="time" orientation="right" tickFormatter={formatDuration} tick={CHART_TICK} tickLine={false} axisLine={false} width={64} />
        <Tooltip content={<ChartTooltipContent formatItem={(value, name) => (name === requestsName ? value.toLocaleString() : formatDuration(value))} />} />
        <Legend content={<ChartLegendContent />} />
        <Bar yAxisId="count" dataKey="request_count" name={requestsName} fill={chartColor(1)} radius={[4, 4, 0, 0]} maxBarSize={32} isAnimationActive={false} />
        <Line
          yAxisId="time"
          dataKey="avg_time"
          name={t('series.avgDuration')}
          type="monotone"
          stroke={chartColor(3)}
          strokeWidth={2}
          dot={{ r: 2.5, fill: chartColor(3) }}
          connectNulls={false}
          isAnimationActive={false}
        />
      </ComposedChart>
    </ChartContainer>
  )
}

export function RegistrationsTrend({ data }: { data: ShapedPeriod['registrations'] }) {
  const { t } = useTranslation('analytics')
  return (
    <ChartContainer data-testid="chart-registrations">
      <BarChart data={data} margin={MARGIN}>
        {grid}
        {xAxis}
        <YAxis allowDecimals={false} tick={CHART_TICK} tickLine={false} axisLine={false} width={40} />
        <Tooltip content={<ChartTooltipContent totalLabel={t('series.total')} />} />
        <Legend content={<ChartLegendContent />} />
        <Bar dataKey="direct" name={t('series.direct')} stackId="r" fill={chartColor(1)} maxBarSize={32} isAnimationActive={false} />
        <Bar dataKey="invited" name={t('series.invited')} stackId="r" fill={chartColor(4)} radius={[4, 4, 0, 0]} maxBarSize={32} isAnimationActive={false} />
      </BarChart>
    </ChartContainer>
  )
}

/** Codes redeemed per day (bars) and the quota they added (line, right axis). */
export function RedemptionsTrend({ data }: { data: ShapedPeriod['redemptions'] }) {
  const { t } = useTranslation('analytics')
  const countName = t('series.redeemedCodes')
  return (
    <ChartContainer className="h-48" data-testid="chart-redemptions">
      <ComposedChart data={data} margin={MARGIN}>
        {grid}
        {xAxis}
        <YAxis yAxisId="count" allowDecimals={false} tick={CHART_TICK} tickLine={false} axisLine={false} width={40} />
        <YAxis yAxisId="quota" orientation="right" tickFormatter={quotaTick} tick={CHART_TICK} tickLine={false} axisLine={false} width={64} />
        <Tooltip content={<ChartTooltipContent formatItem={(value, name) => (name === countName ? value.toLocaleString() : renderQuotaFine(value))} />} />
        <Legend content={<ChartLegendContent />} />
        <Bar yAxisId="count" dataKey="count" name={countName} fill={chartColor(2)} radius={[4, 4, 0, 0]} maxBarSize={32} isAnimationActive={false} />
        <Line
          yAxisId="quota"
          dataKey="quota"
          name={t('series.redeemedQuota')}
          type="monotone"
          stroke={chartColor(5)}
          strokeWidth={2}
          dot={{ r: 2.5, fill: chartColor(5) }}
          isAnimationActive={false}
        />
      </ComposedChart>
    </ChartContainer>
  )
}
