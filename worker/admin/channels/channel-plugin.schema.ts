/**
 * Validation of a channel's plugin parameters (one-hub's `plugin` JSON): an object of plugins,
 * each an object of string or true/false values, stored as compact JSON. Plugins the channel's
 * type applies (shared/contract/channel-plugins.ts) are checked strictly: only their parameters,
 * Custom paths start with "/" or say "disable", header values fit in one header line, voices are
 * one word with an optional "|role". Plugins the type does not apply are kept as imported.
 */
import { z } from 'zod'
import { APPLIED_PLUGINS, parsePlugin } from '../../../shared/contract/channel-plugins'

const MAX_PLUGINS = 20
const MAX_PARAMS = 40
const MAX_VALUE = 500

const plugins = z.record(
  z.string().trim().min(1).max(60),
  z.record(z.string().min(1).max(60), z.union([z.string().max(MAX_VALUE, `values are at most ${MAX_VALUE} characters`), z.boolean()]))
)

/** JSON text or an object (one-hub exports it either way) → compact JSON text, '' for none. */
export const pluginText = z.union([z.string().trim().max(20_000), z.record(z.string(), z.unknown())]).transform((v, ctx) => {
  if (typeof v === 'string' && v === '') return ''
  let parsed: unknown = v
  if (typeof v === 'string') {
    try {
      parsed = JSON.parse(v)
    } catch {
      ctx.addIssue({ code: 'custom', message: 'Plugin parameters must be a valid JSON object' })
      return z.NEVER
    }
  }
  const checked = plugins.safeParse(parsed)
  if (!checked.success) {
    ctx.addIssue({ code: 'custom', message: 'Plugin parameters must be an object of plugins, each an object of text or true/false values' })
    return z.NEVER
  }
  const entries = Object.entries(checked.data)
  if (entries.length > MAX_PLUGINS || entries.some(([, p]) => Object.keys(p).length > MAX_PARAMS)) {
    ctx.addIssue({ code: 'custom', message: `At most ${MAX_PLUGINS} plugins of ${MAX_PARAMS} parameters each` })
    return z.NEVER
  }
  return entries.length ? JSON.stringify(checked.data) : ''
})

const VALUE_RULES: Record<string, { test: (v: string) => boolean; message: string }> = {
  customize: { test: (v) => v === '' || v === 'disable' || /^\/[^\s?#]*(\?[^\s#]*)?$/.test(v), message: 'must be empty, "disable" or a path starting with /' },
  headers: { test: (v) => /^[\t\x20-\x7e]*$/.test(v), message: 'must be printable ASCII on one line' },
  voice: { test: (v) => v === '' || /^[\w-]+(\|[\w-]+)?$/.test(v), message: 'must be a voice name, optionally followed by |role' },
}

/** The parameters of the plugins this channel type applies (unknown names and bad values refused). */
export function pluginParams(v: { type: number; plugin?: string }, ctx: z.RefinementCtx) {
  if (!v.plugin) return
  const applied = APPLIED_PLUGINS[v.type] ?? {}
  for (const [name, params] of Object.entries(parsePlugin(v.plugin))) {
    const spec = Object.hasOwn(applied, name) ? applied[name] : undefined
    if (!spec) continue
    for (const [param, value] of Object.entries(params)) {
      const rule = VALUE_RULES[name]
      if (!spec.params.includes(param)) ctx.addIssue({ code: 'custom', path: ['plugin'], message: `${name}: unknown parameter "${param}"` })
      else if (typeof value !== 'string') ctx.addIssue({ code: 'custom', path: ['plugin'], message: `${name}.${param} must be text` })
      else if (rule && !rule.test(value.trim())) ctx.addIssue({ code: 'custom', path: ['plugin'], message: `${name}.${param} ${rule.message}` })
    }
  }
}
