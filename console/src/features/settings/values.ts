/**
 * Option strings ⇄ form values: the plain codec (text as text, 'true'/'false' as switches, secrets
 * start empty), quotas in dollars or units (lib/format), JSON shown indented and saved compact,
 * and the built-in chat links (DEFAULT_CHAT_LINKS of the shared option metadata).
 */
import { type ChatLink, DEFAULT_CHAT_LINKS, SECRET_OPTION_KEYS } from '@contract/settings'
import { z } from 'zod'
import { inputToQuota, quotaToInput } from '@/lib/format'
import type { OptionMap } from './api'
import type { ChatLinkRow } from './schema'

export const optionValue = (options: OptionMap, key: string) => options[key]?.value ?? ''
export const isConfigured = (options: OptionMap, key: string) => options[key]?.configured === true

type PlainValues = Record<string, string | boolean>

/**
 * For sections whose fields map one-to-one onto options: booleans ⇄ 'true'/'false', strings as
 * typed (trimmed, except secrets; `stripSlash` keys lose a trailing slash), secrets always start
 * empty (an empty secret equals its starting value, so it is never sent).
 */
export function plainCodec<S extends z.ZodObject>(schema: S, { stripSlash = [] }: { stripSlash?: string[] } = {}) {
  type V = z.infer<S>
  const keys = Object.keys(schema.shape)
  const isBool = (key: string) => schema.shape[key] instanceof z.ZodBoolean
  return {
    toForm: (options: OptionMap): V => {
      const values: PlainValues = {}
      for (const key of keys) {
        if (isBool(key)) values[key] = optionValue(options, key) === 'true'
        else values[key] = options[key]?.secret ? '' : optionValue(options, key)
      }
      return values as V
    },
    toOptions: (values: V): Record<string, string> => {
      const out: Record<string, string> = {}
      for (const key of keys) {
        const value = (values as PlainValues)[key]
        if (typeof value === 'boolean') out[key] = String(value)
        else if (SECRET_OPTION_KEYS.has(key)) out[key] = value ?? ''
        else out[key] = stripSlash.includes(key) ? trimUrl(value ?? '') : (value ?? '').trim()
      }
      return out
    },
  }
}

/** URL options are saved without a trailing slash, so joining one with a path never gives `//`. */
export const trimUrl = (value: string) => value.trim().replace(/\/+$/, '')

export const quotaFromOption = (options: OptionMap, key: string) => String(quotaToInput(Number(optionValue(options, key)) || 0))
export const quotaToOption = (value: string) => String(inputToQuota(Number(value)))

/** Stored JSON shown indented (unparseable text is shown as it is). */
export function prettyJson(raw: string): string {
  try {
    return JSON.stringify(JSON.parse(raw), null, 2)
  } catch {
    return raw
  }
}

/** JSON saved compact, the way the server normalises it. */
export function compactJson(raw: string): string {
  try {
    return JSON.stringify(JSON.parse(raw))
  } catch {
    return raw
  }
}

export const chatLinksToRows = (links: ChatLink[]): ChatLinkRow[] => links.map((l) => ({ name: l.name, url: l.url, show: l.show, sort: String(l.sort) }))

export function chatLinksFromOption(raw: string): ChatLinkRow[] {
  try {
    const parsed = JSON.parse(raw) as unknown
    if (!Array.isArray(parsed)) return chatLinksToRows(DEFAULT_CHAT_LINKS)
    return parsed.map((l: Partial<ChatLink>) => ({
      name: String(l.name ?? ''),
      url: String(l.url ?? ''),
      show: Boolean(l.show),
      sort: String(Number.isInteger(l.sort) ? l.sort : 0),
    }))
  } catch {
    return chatLinksToRows(DEFAULT_CHAT_LINKS)
  }
}

/** Rows as the server stores them (the row order is kept; clients sort by descending `sort`). */
export const chatLinksToOption = (rows: ChatLinkRow[]) => JSON.stringify(rows.map((r) => ({ name: r.name.trim(), url: r.url.trim(), show: r.show, sort: Number(r.sort) })))
