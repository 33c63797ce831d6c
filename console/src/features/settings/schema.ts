/**
 * Client-side checks of the settings forms, mirroring worker/settings/registry.ts: integers within
 * the server's bounds (read from the shared option metadata, @contract/settings), non-negative numbers, http(s) links or empty, JSON maps of the right shape,
 * ports 1–65535, PaymentMinAmount an integer ≥ 1. Every field keeps its raw string in the form;
 * messages are i18n keys of the `settings` namespace (bounds are interpolated by the field).
 */
import { numericBounds } from '@contract/settings'
import { z } from 'zod'

const msg = (key: string) => `settings:validation.${key}`

const isNumber = (v: string) => v.trim() !== '' && Number.isFinite(Number(v))

/** A number typed as text, checked against the option's bounds in the shared metadata. */
export function numberText(key: string) {
  const limit = numericBounds(key)
  if (!limit) throw new Error(`${key} is not a numeric option`)
  return z.string().superRefine((raw, ctx) => {
    const v = raw.trim()
    if (limit.integer ? !/^-?\d+$/.test(v) : !isNumber(v)) {
      ctx.addIssue({ code: 'custom', message: msg(limit.integer ? 'integer' : 'number') })
      return
    }
    const n = Number(v)
    if (n < limit.min || (limit.max !== undefined && n > limit.max)) {
      ctx.addIssue({ code: 'custom', message: msg(limit.max === undefined ? 'min' : 'range') })
    }
  })
}

/** A quota typed as dollars (any precision) or as whole units, never negative. */
export function quotaText(currency: boolean) {
  return z.string().superRefine((raw, ctx) => {
    const v = raw.trim()
    const ok = currency ? isNumber(v) && Number(v) >= 0 : /^\d+$/.test(v)
    if (!ok) ctx.addIssue({ code: 'custom', message: msg(currency ? 'quotaDollars' : 'quotaUnits') })
  })
}

const urlPattern = (protocols: RegExp) => (v: string) => {
  try {
    const url = new URL(v)
    return protocols.test(url.protocol) && url.host !== ''
  } catch {
    return false
  }
}

/** An http(s) link, or empty. */
export const urlText = z
  .string()
  .trim()
  .refine((v) => v === '' || urlPattern(/^https?:$/)(v), msg('url'))

/** A proxy address (http, https, socks5), or empty. */
export const proxyText = z
  .string()
  .trim()
  .refine((v) => v === '' || urlPattern(/^(https?|socks5h?):$/)(v), msg('proxy'))

/** The JSON object in `raw`, or undefined after adding the issue that says why not. */
function jsonObject(raw: string, ctx: z.RefinementCtx): Record<string, unknown> | undefined {
  let parsed: unknown
  try {
    parsed = JSON.parse(raw)
  } catch {
    ctx.addIssue({ code: 'custom', message: msg('json') })
    return undefined
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    ctx.addIssue({ code: 'custom', message: msg('jsonObject') })
    return undefined
  }
  return parsed as Record<string, unknown>
}

/** The issue with a map's values (numbers ≥ 0) and keys (non-empty; amounts > 0 when asked). */
function numberMapIssue(map: Record<string, unknown>, amountKeys: boolean): string | undefined {
  const entries = Object.entries(map)
  if (entries.some(([, v]) => typeof v !== 'number' || !Number.isFinite(v) || v < 0)) return msg('jsonNumbers')
  if (entries.some(([k]) => k.trim() === '')) return msg('jsonKeys')
  if (amountKeys && entries.some(([k]) => !isNumber(k) || Number(k) <= 0)) return msg('jsonAmounts')
  return undefined
}

/** A JSON object whose values are numbers ≥ 0; `amountKeys` also wants every key to be an amount > 0. */
export function numberMapText({ amountKeys = false }: { amountKeys?: boolean } = {}) {
  return z.string().superRefine((raw, ctx) => {
    const map = jsonObject(raw, ctx)
    const issue = map && numberMapIssue(map, amountKeys)
    if (issue) ctx.addIssue({ code: 'custom', message: issue })
  })
}

/** A JSON object that `valid` accepts; `problem` names the validation message when it does not. */
export function jsonText(valid: (map: Record<string, unknown>) => boolean, problem: string) {
  return z.string().superRefine((raw, ctx) => {
    const map = jsonObject(raw, ctx)
    if (map && !valid(map)) ctx.addIssue({ code: 'custom', message: msg(problem) })
  })
}

/** Any JSON value that `valid` accepts (a list of rules, say); `problem` names the validation message when it does not. */
export function jsonValueText(valid: (value: unknown) => boolean, problem: string) {
  return z.string().superRefine((raw, ctx) => {
    let value: unknown
    try {
      value = JSON.parse(raw)
    } catch {
      ctx.addIssue({ code: 'custom', message: msg('json') })
      return
    }
    if (!valid(value)) ctx.addIssue({ code: 'custom', message: msg(problem) })
  })
}

/** A JSON object of JSON objects of numbers ≥ 0 (ImagePriceRatios: model → key → ratio). */
export function nestedNumberMapText() {
  return z.string().superRefine((raw, ctx) => {
    const map = jsonObject(raw, ctx)
    if (!map) return
    for (const value of Object.values(map)) {
      const inner = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined
      const issue = inner ? numberMapIssue(inner, false) : msg('jsonObject')
      if (issue) {
        ctx.addIssue({ code: 'custom', message: issue })
        return
      }
    }
  })
}

export const requiredText = z.string().trim().min(1, msg('required'))

/** One row of the chat links table: a named chat client address template (name and URL required). */
export const chatLinkRow = z.object({
  name: z.string().trim().min(1, msg('required')),
  url: z.string().trim().min(1, msg('required')),
  show: z.boolean(),
  sort: z
    .string()
    .trim()
    .regex(/^-?\d+$/, msg('integer')),
})
export type ChatLinkRow = z.infer<typeof chatLinkRow>

export const chatLinksSchema = z.object({
  ChatLinks: z.array(chatLinkRow).superRefine((rows, ctx) => {
    const seen = new Set<string>()
    rows.forEach((row, i) => {
      const name = row.name.trim()
      if (name && seen.has(name)) ctx.addIssue({ code: 'custom', path: [i, 'name'], message: msg('duplicateName') })
      seen.add(name)
    })
  }),
})
export type ChatLinksValues = z.infer<typeof chatLinksSchema>

/** Domains of the whitelist: `example.com`, `mail.example.co.uk`. */
const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i

export const emailDomainSchema = z.object({ EmailDomainRestrictionEnabled: z.boolean(), EmailDomainWhitelist: z.array(z.string()) }).superRefine((v, ctx) => {
  if (v.EmailDomainWhitelist.some((d) => !DOMAIN.test(d))) {
    ctx.addIssue({ code: 'custom', path: ['EmailDomainWhitelist'], message: msg('domain') })
  } else if (v.EmailDomainRestrictionEnabled && v.EmailDomainWhitelist.length === 0) {
    ctx.addIssue({ code: 'custom', path: ['EmailDomainWhitelist'], message: msg('domainsRequired') })
  }
})
export type EmailDomainValues = z.infer<typeof emailDomainSchema>

/** The price of unpriced models: off (refuse them) or {type, input, output}. */
export const defaultPriceFields = {
  DefaultPriceEnabled: z.boolean(),
  DefaultPriceType: z.enum(['tokens', 'times']),
  DefaultPriceInput: z.string(),
  DefaultPriceOutput: z.string(),
}

export function checkDefaultPrice(v: { DefaultPriceEnabled: boolean; DefaultPriceInput: string; DefaultPriceOutput: string }, ctx: z.RefinementCtx) {
  if (!v.DefaultPriceEnabled) return
  for (const field of ['DefaultPriceInput', 'DefaultPriceOutput'] as const) {
    if (!isNumber(v[field]) || Number(v[field]) < 0) ctx.addIssue({ code: 'custom', path: [field], message: msg('nonNegative') })
  }
}
