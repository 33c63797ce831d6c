/**
 * Display formatters shared by every page: quota as currency or raw units, quota ⇄ form
 * input conversion, and timestamps. The currency flag and quota-per-unit come from the site info
 * saved in the browser at startup (see features/site).
 */
import { STORAGE_KEYS, readString } from './storage'

export const DEFAULT_QUOTA_PER_UNIT = 500000

export function quotaPerUnit(): number {
  const value = Number(readString(STORAGE_KEYS.quotaPerUnit))
  return Number.isFinite(value) && value > 0 ? value : DEFAULT_QUOTA_PER_UNIT
}

export function displayInCurrency(): boolean {
  return readString(STORAGE_KEYS.displayInCurrency) === 'true'
}

/** '$' + quota / quota_per_unit when currency display is on; otherwise B / M / k abbreviations. */
export function renderQuota(quota: number, digits = 2): string {
  if (displayInCurrency()) return `$${(quota / quotaPerUnit()).toFixed(digits)}`
  return renderNumber(quota)
}

export function renderNumber(n: number): string {
  if (n >= 1e9) return `${(n / 1e9).toFixed(1)}B`
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)}M`
  if (n >= 1e4) return `${(n / 1e3).toFixed(1)}k`
  return String(n)
}

/** Value to put in a quota input: dollars when currency display is on, raw units otherwise. */
export function quotaToInput(quota: number): number {
  return displayInCurrency() ? Number((quota / quotaPerUnit()).toFixed(6)) : quota
}

/** Inverse of quotaToInput: always an integer number of quota units. */
export function inputToQuota(value: number): number {
  return Math.round(displayInCurrency() ? value * quotaPerUnit() : value)
}

const pad = (n: number) => String(n).padStart(2, '0')

/** Seconds since the epoch → 'YYYY-MM-DD HH:mm:ss' in local time. */
export function timestamp2string(seconds: number): string {
  const d = new Date(seconds * 1000)
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ` + `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`
}
