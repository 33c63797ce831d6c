/**
 * The charge of a log row with its price breakdown from `metadata`: billing type,
 * input/output ratios with their $ per 1M tokens (or $ per call), the long-context tier used, group
 * ratio, extra token lines, cache write tokens, the fee per request, billed model, attempts, a charge
 * capped to the balance, and cache hits.
 */
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Popover, PopoverContent, PopoverTrigger } from '@/components/ui/popover'
import { Separator } from '@/components/ui/separator'
import { renderLogQuota, type LogRow } from '../api'

const usd = (n: number) => `$${Number(n.toPrecision(6))}`
const num = (n: number) => String(Number(n.toFixed(6)))

function Line({ label, children, testId }: { label: ReactNode; children: ReactNode; testId?: string }) {
  return (
    <div className="flex items-baseline justify-between gap-4" data-testid={testId}>
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="text-right font-medium tabular-nums">{children}</dd>
    </div>
  )
}

/** Whether a row carries anything worth a breakdown. */
export function hasBreakdown(row: LogRow): boolean {
  const m = row.metadata
  return !!m && (m.type === 'tokens' || m.type === 'times' || m.cache_hit === true || m.capped_from !== undefined)
}

export function LogsQuotaPopover({ row }: { row: LogRow }) {
  const { t } = useTranslation('logs')
  const amount = <span className="tabular-nums">{renderLogQuota(row.quota)}</span>
  if (!hasBreakdown(row)) return amount
  const m = row.metadata!
  const times = m.type === 'times'
  const perUnit = times ? t('breakdown.perCall') : t('breakdown.perMillion')
  const fee = m.fee ?? 0

  return (
    <Popover>
      <PopoverTrigger asChild>
        <button
          type="button"
          className="cursor-pointer rounded-sm font-medium tabular-nums underline decoration-dotted underline-offset-4 hover:text-primary focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
          aria-label={t('breakdown.open')}
          data-testid="quota-breakdown-trigger"
        >
          {renderLogQuota(row.quota)}
        </button>
      </PopoverTrigger>
      <PopoverContent className="w-80 max-w-[calc(100vw-2rem)] text-sm" align="end" data-testid="quota-breakdown">
        <p className="mb-3 font-semibold">{t('breakdown.title')}</p>
        <dl className="grid gap-1.5">
          {m.cache_hit && <p className="rounded-md bg-success/10 px-2 py-1 text-success">{t('breakdown.cacheHit')}</p>}
          {m.type && <Line label={t('breakdown.type')}>{times ? t('breakdown.times') : t('breakdown.tokens')}</Line>}
          {m.billed_model && <Line label={t('breakdown.billedModel')}>{m.billed_model}</Line>}
          {m.input_ratio !== undefined && (
            <Line label={times ? t('breakdown.callRatio') : t('breakdown.inputRatio')} testId="breakdown-input">
              {num(m.input_ratio)}
              {m.input_usd !== undefined && (
                <span className="ml-1 font-normal text-muted-foreground">
                  ({usd(m.input_usd)} {perUnit})
                </span>
              )}
            </Line>
          )}
          {!times && m.output_ratio !== undefined && (
            <Line label={t('breakdown.outputRatio')} testId="breakdown-output">
              {num(m.output_ratio)}
              {m.output_usd !== undefined && (
                <span className="ml-1 font-normal text-muted-foreground">
                  ({usd(m.output_usd)} {perUnit})
                </span>
              )}
            </Line>
          )}
          {m.tier_threshold !== undefined && (
            <Line label={t('breakdown.tier')} testId="breakdown-tier">
              {m.tier_applied
                ? t('breakdown.tierApplied', { threshold: m.tier_threshold.toLocaleString() })
                : t('breakdown.tierNotApplied', { threshold: m.tier_threshold.toLocaleString() })}
            </Line>
          )}
          {m.group_ratio !== undefined && <Line label={m.group ? t('breakdown.groupRatioOf', { group: m.group }) : t('breakdown.groupRatio')}>{num(m.group_ratio)}</Line>}
          {!times && m.prompt_tokens !== undefined && (
            <Line label={t('breakdown.prompt')}>
              {m.prompt_tokens.toLocaleString()}
              {m.billed_prompt !== undefined && m.billed_prompt !== m.prompt_tokens && <span className="ml-1 font-normal text-muted-foreground">→ {num(m.billed_prompt)}</span>}
            </Line>
          )}
          {!times && m.completion_tokens !== undefined && (
            <Line label={t('breakdown.completion')}>
              {m.completion_tokens.toLocaleString()}
              {m.billed_completion !== undefined && m.billed_completion !== m.completion_tokens && (
                <span className="ml-1 font-normal text-muted-foreground">→ {num(m.billed_completion)}</span>
              )}
            </Line>
          )}
          {(m.extra ?? []).map((line) => (
            <Line key={line.kind} label={t(`extra.${line.kind}`, { defaultValue: line.kind })}>
              {line.count.toLocaleString()} × {num(line.ratio)}
            </Line>
          ))}
          {m.cache_write_tokens !== undefined && <Line label={t('breakdown.cacheWrites')}>{m.cache_write_tokens.toLocaleString()}</Line>}
          {fee > 0 && (
            <Line label={t('breakdown.fee')} testId="breakdown-fee">
              {t('breakdown.feeUnits', { count: fee })}
            </Line>
          )}
          {m.attempts !== undefined && <Line label={t('breakdown.attempts')}>{m.attempts}</Line>}
        </dl>
        {!times && m.type === 'tokens' && m.input_ratio !== undefined && m.output_ratio !== undefined && m.group_ratio !== undefined && (
          <p className="mt-3 rounded-md bg-muted px-2 py-1.5 font-mono text-xs break-all text-muted-foreground" data-testid="breakdown-formula">
            ({num(m.billed_prompt ?? m.prompt_tokens ?? 0)} × {num(m.input_ratio)} + {num(m.billed_completion ?? m.completion_tokens ?? 0)} × {num(m.output_ratio)}
            {fee > 0 && ` + ${fee}`}) × {num(m.group_ratio)} ≈ {m.quota ?? row.quota}
          </p>
        )}
        {times && m.input_ratio !== undefined && m.group_ratio !== undefined && (
          <p className="mt-3 rounded-md bg-muted px-2 py-1.5 font-mono text-xs break-all text-muted-foreground" data-testid="breakdown-formula">
            {fee > 0 ? `(1000 × ${num(m.input_ratio)} + ${fee})` : `1000 × ${num(m.input_ratio)}`} × {num(m.group_ratio)} ≈ {m.quota ?? row.quota}
          </p>
        )}
        {m.capped_from !== undefined && (
          <p className="mt-3 rounded-md bg-warning/10 px-2 py-1.5 text-xs" data-testid="breakdown-capped">
            {t('breakdown.capped', { wanted: renderLogQuota(m.capped_from), charged: renderLogQuota(row.quota) })}
          </p>
        )}
        <Separator className="my-3" />
        <Line label={t('breakdown.total')}>
          {renderLogQuota(row.quota)}
          <span className="ml-1 font-normal text-muted-foreground">({t('breakdown.units', { count: row.quota })})</span>
        </Line>
      </PopoverContent>
    </Popover>
  )
}
