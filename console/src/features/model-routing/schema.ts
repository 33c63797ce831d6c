/**
 * The model routing editor's forms and their mapping to the two root settings: weighted routes
 * (`ModelRoutes`: requested model, scope every group / one group / one API key, weighted target
 * models) and cross-model fallbacks (`ModelFallbacks`: model → ordered models). Inputs stay strings
 * in the form; `routesToOption` / `fallbacksToOption` build the JSON the worker reads, and the
 * forms are checked with the worker's own schemas (`@contract/option-checks`) on top of the
 * per-field checks, so the editor never saves what the server would refuse.
 */
import { z } from 'zod'
import { modelFallbacksSchema, modelRoutesSchema } from '@contract/option-checks'

/** Messages are keys of the `model-routing` namespace. */
const K = (key: string) => `model-routing:errors.${key}`

export const ROUTE_SCOPES = ['all', 'group', 'key'] as const

export const MAX_WEIGHT = 10_000

const modelField = z.string().trim().min(1, K('modelRequired')).max(200, K('modelTooLong'))

const targetSchema = z.object({
  model: modelField,
  weight: z
    .string()
    .trim()
    .superRefine((v, ctx) => {
      if (!/^[1-9]\d*$/.test(v)) ctx.addIssue({ code: 'custom', message: K('weightWhole') })
      else if (Number(v) > MAX_WEIGHT) ctx.addIssue({ code: 'custom', message: K('weightMax') })
    }),
})

const routeSchema = z
  .object({
    model: modelField,
    scope: z.enum(ROUTE_SCOPES),
    group: z.string().trim(),
    token_id: z.string().trim(),
    targets: z.array(targetSchema).min(1, K('targetsRequired')),
  })
  .superRefine((r, ctx) => {
    if (r.scope === 'group' && (r.group === '' || r.group.length > 64)) ctx.addIssue({ code: 'custom', path: ['group'], message: K('groupRequired') })
    if (r.scope === 'key' && !/^[1-9]\d{0,15}$/.test(r.token_id)) ctx.addIssue({ code: 'custom', path: ['token_id'], message: K('keyRequired') })
    const seen = new Set<string>()
    r.targets.forEach((t, i) => {
      if (seen.has(t.model)) ctx.addIssue({ code: 'custom', path: ['targets', i, 'model'], message: K('targetTwice') })
      seen.add(t.model)
    })
  })

export type RouteTargetRow = z.infer<typeof targetSchema>
export type RouteRow = z.infer<typeof routeSchema>

export const routesFormSchema = z.object({ ModelRoutes: z.array(routeSchema) }).superRefine((v, ctx) => {
  const seen = new Set<string>()
  v.ModelRoutes.forEach((r, i) => {
    const id = `${r.model}\u0000${scopeId(r)}`
    if (seen.has(id)) ctx.addIssue({ code: 'custom', path: ['ModelRoutes', i, 'model'], message: K('routeTwice') })
    seen.add(id)
  })
  // The server's own check last (limits on counts and the like), shown under the list.
  const server = modelRoutesSchema.safeParse(JSON.parse(routesToOption(v.ModelRoutes)))
  if (!server.success && seen.size === v.ModelRoutes.length && v.ModelRoutes.every((r) => routeSchema.safeParse(r).success))
    ctx.addIssue({ code: 'custom', path: ['ModelRoutes'], message: server.error.issues[0]?.message ?? K('invalid') })
})
export type RoutesForm = z.infer<typeof routesFormSchema>

const scopeId = (r: Pick<RouteRow, 'scope' | 'group' | 'token_id'>) => (r.scope === 'group' ? `g:${r.group.trim()}` : r.scope === 'key' ? `k:${Number(r.token_id)}` : '')

export const emptyTarget = (): RouteTargetRow => ({ model: '', weight: '1' })
export const emptyRoute = (): RouteRow => ({ model: '', scope: 'all', group: '', token_id: '', targets: [emptyTarget()] })

interface StoredRoute {
  model: string
  group?: string
  token_id?: number
  targets: { model: string; weight: number }[]
}

const parse = (raw: string | undefined): unknown => {
  try {
    return JSON.parse(raw || 'null')
  } catch {
    return null
  }
}

/** The stored `ModelRoutes` JSON as form rows (entries that are not routes are left out). */
export function routesFromOption(raw: string | undefined): RouteRow[] {
  const list = parse(raw)
  if (!Array.isArray(list)) return []
  return list
    .filter((r): r is StoredRoute => !!r && typeof r === 'object' && typeof r.model === 'string' && Array.isArray(r.targets))
    .map((r) => ({
      model: r.model,
      scope: r.token_id !== undefined ? 'key' : r.group !== undefined ? 'group' : 'all',
      group: r.group ?? '',
      token_id: r.token_id !== undefined ? String(r.token_id) : '',
      targets: r.targets.map((t) => ({ model: String(t?.model ?? ''), weight: String(t?.weight ?? '') })),
    }))
}

/** Form rows as the `ModelRoutes` JSON: a group or key only for its scope, weights as numbers. */
export function routesToOption(rows: RouteRow[]): string {
  const list: StoredRoute[] = rows.map((r) => ({
    model: r.model.trim(),
    ...(r.scope === 'group' ? { group: r.group.trim() } : {}),
    ...(r.scope === 'key' ? { token_id: Number(r.token_id) } : {}),
    targets: r.targets.map((t) => ({ model: t.model.trim(), weight: Number(t.weight) })),
  }))
  return JSON.stringify(list)
}

/** Each weight's share of the route in percent (one decimal); weights that are not positive integers count 0. */
export function weightPercents(weights: string[]): number[] {
  const values = weights.map((w) => (/^\s*[1-9]\d*\s*$/.test(w) ? Number(w) : 0))
  const total = values.reduce((s, v) => s + v, 0)
  return values.map((v) => (total ? Math.round((v / total) * 1000) / 10 : 0))
}

const fallbackSchema = z
  .object({
    model: modelField,
    fallbacks: z.array(z.object({ model: modelField })).min(1, K('fallbacksRequired')),
  })
  .superRefine((f, ctx) => {
    const seen = new Set<string>()
    f.fallbacks.forEach((m, i) => {
      if (m.model === f.model) ctx.addIssue({ code: 'custom', path: ['fallbacks', i, 'model'], message: K('fallbackSelf') })
      else if (seen.has(m.model)) ctx.addIssue({ code: 'custom', path: ['fallbacks', i, 'model'], message: K('fallbackTwice') })
      seen.add(m.model)
    })
  })

export type FallbackRow = z.infer<typeof fallbackSchema>

export const fallbacksFormSchema = z.object({ ModelFallbacks: z.array(fallbackSchema) }).superRefine((v, ctx) => {
  const seen = new Set<string>()
  v.ModelFallbacks.forEach((f, i) => {
    if (seen.has(f.model)) ctx.addIssue({ code: 'custom', path: ['ModelFallbacks', i, 'model'], message: K('modelTwice') })
    seen.add(f.model)
  })
  // Cycles (a → b → a) and the server's limits: its own schema, shown under the list.
  const server = modelFallbacksSchema.safeParse(JSON.parse(fallbacksToOption(v.ModelFallbacks)))
  if (!server.success && seen.size === v.ModelFallbacks.length && v.ModelFallbacks.every((r) => fallbackSchema.safeParse(r).success)) {
    const cycle = server.error.issues.some((i) => i.message.includes('cycle'))
    ctx.addIssue({ code: 'custom', path: ['ModelFallbacks'], message: cycle ? K('fallbackCycle') : (server.error.issues[0]?.message ?? K('invalid')) })
  }
})
export type FallbacksForm = z.infer<typeof fallbacksFormSchema>

export const emptyFallback = (): FallbackRow => ({ model: '', fallbacks: [{ model: '' }] })

/** The stored `ModelFallbacks` JSON as form rows, in the stored order. */
export function fallbacksFromOption(raw: string | undefined): FallbackRow[] {
  const map = parse(raw)
  if (!map || typeof map !== 'object' || Array.isArray(map)) return []
  return Object.entries(map as Record<string, unknown>)
    .filter((e): e is [string, unknown[]] => Array.isArray(e[1]))
    .map(([model, list]) => ({ model, fallbacks: list.map((m) => ({ model: String(m) })) }))
}

/** Form rows as the `ModelFallbacks` JSON (an own-keyed object: a model named `__proto__` stays an entry). */
export function fallbacksToOption(rows: FallbackRow[]): string {
  const map: Record<string, string[]> = {}
  for (const r of rows) Object.defineProperty(map, r.model.trim(), { value: r.fallbacks.map((m) => m.model.trim()), enumerable: true, writable: true, configurable: true })
  return JSON.stringify(map)
}
