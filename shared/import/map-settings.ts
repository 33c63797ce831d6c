/**
 * Site options and prices. An option is imported when this gateway has a setting of the same key
 * and the value passes that setting's own validation; the rest are listed as unmapped. Prices come
 * from one-hub's `prices` table, or from one-api's ModelRatio × CompletionRatio options (same unit:
 * 1.0 = $0.002 per 1K tokens). The gateway's built-in price table fills an empty prices table first,
 * as the first setup does (the CLI adds it when the target has no prices).
 */
import { DEFAULT_PRICES } from '../contract/default-prices'
import { checkOptionValue, isOptionKey } from '../contract/option-checks'
import { OPTION_META, type OptionMeta } from '../contract/settings'
import { ImportPlan, bool, num, parseJson, str, type TableWrite, type Value } from './plan'
import type { Row } from './sql-dump'

/** Options handled elsewhere (prices, groups) or that must never be copied between instances. */
const HANDLED = new Set(['ModelRatio', 'CompletionRatio', 'GroupRatio', 'TokenSecret'])

/** Per-call models are billed per request, not per token. */
const PER_CALL = /^(mj_|suno_|chirp-|kling-video_)/

export function mapOptions(plan: ImportPlan, rows: Row[]): Map<string, string> {
  const all = new Map<string, string>()
  const out: Record<string, Value>[] = []
  const unmapped: string[] = []
  for (const r of rows) {
    plan.count('options').read++
    const key = str(r.key)
    const raw = str(r.value)
    all.set(key, raw)
    if (HANDLED.has(key)) continue
    if (!isOptionKey(key) || (OPTION_META[key] as OptionMeta).internal) {
      unmapped.push(key)
      plan.count('options').skipped++
      continue
    }
    const checked = checkOptionValue(key, raw)
    if (!checked.ok) {
      plan.problems.push(`options ${key}: ${checked.message} (value ${JSON.stringify(raw.slice(0, 60))}); skipped`)
      plan.count('options').skipped++
      continue
    }
    out.push({ key, value: checked.value })
  }
  if (unmapped.length) plan.notes.push(`options without an equivalent setting here (not imported): ${unmapped.sort().join(', ')}`)
  plan.add({ table: 'options', rows: out, onConflict: { target: ['key'], update: ['value'] } })
  return all
}

/**
 * The gateway's built-in price table, written first when the target has no prices at all (what the
 * first setup does; an imported gateway never runs it). Imported prices then win where both exist.
 */
export function defaultPricesWrite(): TableWrite {
  return {
    table: 'prices',
    rows: DEFAULT_PRICES.map((p) => ({ ...p, locked: 0, extra_ratios: p.extra_ratios ? JSON.stringify(p.extra_ratios) : null, tier: p.tier ? JSON.stringify(p.tier) : null })),
    onConflict: 'ignore',
  }
}

export function mapPrices(plan: ImportPlan, priceRows: Row[] | undefined, options: Map<string, string>) {
  const out: Record<string, Value>[] = []
  if (priceRows) {
    for (const r of priceRows) {
      plan.count('prices').read++
      const model = str(r.model)
      const type = str(r.type) || 'tokens'
      if (!model || (type !== 'tokens' && type !== 'times')) {
        plan.skip('prices', { id: model || '?' }, model ? `unknown price type ${type}` : 'no model name')
        continue
      }
      const extra = parseJson<Record<string, number>>(str(r.extra_ratios))
      out.push({
        model,
        type,
        channel_type: num(r.channel_type),
        input: num(r.input),
        output: num(r.output),
        locked: bool(r.locked) ? 1 : 0,
        extra_ratios: extra && Object.keys(extra).length ? JSON.stringify(extra) : null,
      })
    }
  } else {
    const modelRatio = parseJson<Record<string, number>>(options.get('ModelRatio') ?? '')
    const completionRatio = parseJson<Record<string, number>>(options.get('CompletionRatio') ?? '') ?? {}
    if (options.has('ModelRatio') && !modelRatio) plan.problems.push('options ModelRatio: not JSON; no prices imported')
    const guessed: string[] = []
    for (const [model, ratio] of Object.entries(modelRatio ?? {})) {
      plan.count('prices').read++
      if (typeof ratio !== 'number' || !(ratio >= 0)) {
        plan.skip('prices', { id: model }, `ModelRatio ${String(ratio)} is not a number`)
        continue
      }
      const completion = completionRatio[model]
      if (typeof completion !== 'number') guessed.push(model)
      const type = PER_CALL.test(model) ? 'times' : 'tokens'
      out.push({
        model,
        type,
        channel_type: 0,
        input: ratio,
        output: type === 'times' ? 0 : ratio * (typeof completion === 'number' ? completion : 1),
        locked: 0,
        extra_ratios: null,
      })
    }
    if (guessed.length) {
      plan.problems.push(
        `prices: one-api had no CompletionRatio for ${guessed.length} models (it used built-in defaults); output price set equal to input, review: ${guessed.slice(0, 20).join(', ')}${guessed.length > 20 ? ', …' : ''}`
      )
    }
  }
  plan.add({
    table: 'prices',
    rows: out,
    onConflict: { target: ['model'], update: ['type', 'channel_type', 'input', 'output', 'locked', 'extra_ratios'] },
  })
}
