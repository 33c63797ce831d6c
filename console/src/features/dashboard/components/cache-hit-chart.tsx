/**
 * Cache-hit share per model: of the prompt tokens sent in the period, the share the supplier
 * served from its prompt cache (OpenAI cached_tokens, Anthropic cache reads), for the eight
 * models with the most prompt tokens. Horizontal bars, so long model names fit at phone width.
 */
import { useMemo } from 'react'
import { Bar, BarChart, CartesianGrid, Tooltip, XAxis, YAxis } from 'recharts'
import { useTranslation } from 'react-i18next'
import { CHART_TICK, ChartContainer, ChartTooltipContent, chartColor } from '@/components/ui/chart'
import { renderNumber } from '@/lib/format'
import type { UsageRow } from '../api'

export interface CacheHitRow {
  model: string
  prompt: number
  cached: number
  /** Percent of prompt tokens served from the cache. */
  share: number
}

export function cacheHitsByModel(rows: UsageRow[], limit = 8): CacheHitRow[] {
  const byModel = new Map<string, { prompt: number; cached: number }>()
  for (const r of rows) {
    const m = byModel.get(r.model_name) ?? { prompt: 0, cached: 0 }
    m.prompt += r.prompt_tokens
    m.cached += r.cached_tokens ?? 0
    byModel.set(r.model_name, m)
  }
  return [...byModel.entries()]
    .filter(([, m]) => m.prompt > 0)
    .sort((a, b) => b[1].prompt - a[1].prompt)
    .slice(0, limit)
    .map(([model, m]) => ({ model, ...m, share: Math.round((Math.min(m.cached, m.prompt) / m.prompt) * 1000) / 10 }))
}

const shortName = (name: string) => (name.length > 16 ? `${name.slice(0, 15)}…` : name)

export function CacheHitChart({ rows }: { rows: UsageRow[] }) {
  const { t } = useTranslation('dashboard')
  const data = useMemo(() => cacheHitsByModel(rows), [rows])
  const detail = (model: string) => data.find((d) => d.model === model)
  return (
    <ChartContainer className="h-72" data-testid="chart-cache-hits">
      <BarChart data={data} layout="vertical" margin={{ top: 8, right: 16, left: 0, bottom: 0 }}>
        <CartesianGrid horizontal={false} strokeDasharray="3 3" />
        <XAxis type="number" domain={[0, 100]} tickFormatter={(v: number) => `${v}%`} tick={CHART_TICK} tickLine={false} axisLine={false} />
        <YAxis type="category" dataKey="model" tickFormatter={shortName} tick={CHART_TICK} tickLine={false} axisLine={false} width={132} />
        <Tooltip
          content={
            <ChartTooltipContent
              labelFormatter={(model) => {
                const d = detail(model)
                return d ? `${model} · ${t('cacheHits.tokens', { cached: renderNumber(d.cached), prompt: renderNumber(d.prompt) })}` : model
              }}
              valueFormatter={(v) => `${v}%`}
            />
          }
        />
        <Bar dataKey="share" name={t('cacheHits.share')} fill={chartColor(2)} radius={[0, 4, 4, 0]} maxBarSize={28} isAnimationActive={false} />
      </BarChart>
    </ChartContainer>
  )
}
