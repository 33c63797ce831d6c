/**
 * Payment gateway rows: their stored config (secrets write-only: blanked in views, kept when an
 * update leaves them empty, validated by the gateway's own schema), the notify URL each gateway is
 * given, and the admin and user views of a row. The type, currency and status columns are text;
 * writes accept only the contract's values (payments.routes.ts), so the views narrow them.
 */
import { and, eq } from 'drizzle-orm'
import { createDb } from '../db/client'
import { payments, type Payment } from '../db/schema'
import { badRequest, notFound } from '../lib/errors'
import type { Settings } from '../settings/store'
import { gatewayOf } from './gateways/registry'
import type { Gateway } from './gateways/types'
import type { PaymentCurrency } from '../../shared/contract/payment-amount'
import type { Gateway as GatewayView, GatewayType, UserGateway } from '../../shared/contract/payments'

export function parseConfig(row: Pick<Payment, 'config'>): Record<string, string> {
  try {
    const v = JSON.parse(row.config) as unknown
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, string>) : {}
  } catch {
    return {}
  }
}

/** The config as the admin API shows it: secrets blanked, with which of them are set. */
export function publicConfig(row: Payment): { config: Record<string, string>; config_set: Record<string, boolean> } {
  const gateway = gatewayOf(row.type)
  const config = parseConfig(row)
  const set: Record<string, boolean> = {}
  for (const f of gateway?.fields ?? []) {
    if (!f.secret) continue
    set[f.key] = Boolean(config[f.key])
    config[f.key] = ''
  }
  return { config, config_set: set }
}

/** ServerAddress, else `site`: the request's public site URL (origin plus BASE_PATH, lib/base-path.ts). */
export function siteBase(settings: Settings, site: string): string {
  return (settings.str('ServerAddress') || site).replace(/\/+$/, '')
}

export function notifyUrl(row: Pick<Payment, 'notifyDomain' | 'uuid'>, settings: Settings, site: string): string {
  const base = (row.notifyDomain || siteBase(settings, site)).replace(/\/+$/, '')
  return `${base}/api/payment/notify/${row.uuid}`
}

export function gatewayView(row: Payment, settings: Settings, site: string) {
  return {
    id: row.id,
    uuid: row.uuid,
    name: row.name,
    type: row.type as GatewayType,
    icon: row.icon,
    currency: row.currency as PaymentCurrency,
    fixed_fee: row.fixedFee / 100,
    percent_fee: row.percentFee,
    sort: row.sort,
    enable: row.enable,
    notify_domain: row.notifyDomain,
    notify_url: notifyUrl(row, settings, site),
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  } satisfies GatewayView
}

/** What any signed-in user may see of an enabled gateway. */
export const userGatewayView = (row: Payment) =>
  ({
    uuid: row.uuid,
    name: row.name,
    type: row.type as GatewayType,
    icon: row.icon,
    fixed_fee: row.fixedFee / 100,
    percent_fee: row.percentFee,
    currency: row.currency as PaymentCurrency,
    sort: row.sort,
  }) satisfies UserGateway

/**
 * The config to store: the submitted values over the stored ones, where an empty or missing secret
 * keeps the stored secret (secrets are write-only), validated by the gateway's schema.
 */
export async function mergeConfig(gateway: Gateway, submitted: Record<string, unknown>, stored: Record<string, string>): Promise<Record<string, string>> {
  const merged: Record<string, unknown> = {}
  for (const f of gateway.fields) {
    const v = submitted[f.key]
    const given = typeof v === 'string' ? v : v === undefined || v === null ? undefined : String(v)
    if (f.secret && !given) merged[f.key] = stored[f.key] ?? ''
    else merged[f.key] = given ?? stored[f.key] ?? ''
  }
  // Optional fields left empty take the schema's default.
  for (const f of gateway.fields) if (!f.required && merged[f.key] === '' && !f.secret) delete merged[f.key]
  const parsed = await gateway.schema.safeParseAsync(merged)
  if (!parsed.success) {
    const fields: Record<string, string> = {}
    for (const issue of parsed.error.issues) {
      const key = `config.${issue.path.join('.')}`
      fields[key] ??= issue.message
    }
    throw badRequest(
      Object.entries(fields)
        .map(([k, m]) => `${k}: ${m}`)
        .join('; '),
      { fields }
    )
  }
  return parsed.data as Record<string, string>
}

export async function findGateway(env: Env, id: number): Promise<Payment> {
  const [row] = await createDb(env.DB)
    .select()
    .from(payments)
    .where(and(eq(payments.id, id), eq(payments.deletedAt, 0)))
    .limit(1)
  if (!row) throw notFound('Payment gateway not found')
  return row
}
