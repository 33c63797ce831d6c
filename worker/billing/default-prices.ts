/**
 * Seeds the built-in price table (shared/contract/default-prices.ts) into a fresh install: at setup,
 * when no price exists yet.
 */
import { DEFAULT_PRICES } from '../../shared/contract/default-prices'

/** Insert the default table when the prices table is empty (first run). */
export async function seedDefaultPrices(env: Env): Promise<number> {
  const existing = await env.DB.prepare('SELECT 1 FROM prices LIMIT 1').first()
  if (existing) return 0
  const stmt = env.DB.prepare('INSERT OR IGNORE INTO prices (model, type, channel_type, input, output, locked, extra_ratios, tier, fee) VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?)')
  const json = (v: object | null) => (v ? JSON.stringify(v) : null)
  await env.DB.batch(DEFAULT_PRICES.map((p) => stmt.bind(p.model, p.type, p.channel_type, p.input, p.output, json(p.extra_ratios), json(p.tier), p.fee)))
  return DEFAULT_PRICES.length
}
