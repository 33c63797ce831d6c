/** The model routing editor's forms: stored JSON ⇄ form rows, weights as percentages, and the checks the server would make. */
import { describe, expect, it } from 'vitest'
import { modelFallbacksSchema, modelRoutesSchema } from '@contract/option-checks'
import {
  fallbacksFormSchema,
  fallbacksFromOption,
  fallbacksToOption,
  routesFormSchema,
  routesFromOption,
  routesToOption,
  weightPercents,
  type FallbackRow,
  type RouteRow,
} from './schema'

const STORED_ROUTES = [
  {
    model: 'gpt-4o',
    targets: [
      { model: 'gpt-4o', weight: 90 },
      { model: 'gpt-4.1', weight: 10 },
    ],
  },
  { model: 'gpt-4o', group: 'vip', targets: [{ model: 'gpt-4.1', weight: 1 }] },
  { model: 'gpt-4o', token_id: 42, targets: [{ model: 'o3', weight: 3 }] },
]

const route = (over: Partial<RouteRow> = {}): RouteRow => ({ model: 'm', scope: 'all', group: '', token_id: '', targets: [{ model: 'a', weight: '1' }], ...over })
const routeErrors = (rows: RouteRow[]) => {
  const r = routesFormSchema.safeParse({ ModelRoutes: rows })
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')} ${i.message}`)
}
const fallbackErrors = (rows: FallbackRow[]) => {
  const r = fallbacksFormSchema.safeParse({ ModelFallbacks: rows })
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')} ${i.message}`)
}

describe('routes', () => {
  it('round-trips the stored JSON through the form, each scope kept', () => {
    const rows = routesFromOption(JSON.stringify(STORED_ROUTES))
    expect(rows.map((r) => [r.scope, r.group, r.token_id])).toEqual([
      ['all', '', ''],
      ['group', 'vip', ''],
      ['key', '', '42'],
    ])
    expect(rows[0]!.targets).toEqual([
      { model: 'gpt-4o', weight: '90' },
      { model: 'gpt-4.1', weight: '10' },
    ])
    expect(JSON.parse(routesToOption(rows))).toEqual(STORED_ROUTES)
    expect(routeErrors(rows)).toEqual([])
  })

  it('drops the scope value the chosen scope does not use, and trims names', () => {
    const out = JSON.parse(routesToOption([route({ model: ' m ', scope: 'all', group: 'vip', token_id: '7', targets: [{ model: ' a ', weight: ' 5 ' }] })]))
    expect(out).toEqual([{ model: 'm', targets: [{ model: 'a', weight: 5 }] }])
    expect(modelRoutesSchema.safeParse(out).success).toBe(true)
  })

  it('reads garbage as no routes', () => {
    expect(routesFromOption('not json')).toEqual([])
    expect(routesFromOption('{"a":1}')).toEqual([])
    expect(routesFromOption(undefined)).toEqual([])
  })

  it('refuses weights that are not positive whole numbers, missing scope values, and duplicates', () => {
    for (const weight of ['0', '-1', '1.5', 'abc', '', '10001']) expect(routeErrors([route({ targets: [{ model: 'a', weight }] })])).toHaveLength(1)
    expect(routeErrors([route({ scope: 'group' })])).toEqual(['ModelRoutes.0.group model-routing:errors.groupRequired'])
    expect(routeErrors([route({ scope: 'key', token_id: '0' })])).toEqual(['ModelRoutes.0.token_id model-routing:errors.keyRequired'])
    expect(routeErrors([route({ targets: [] })])).toEqual(['ModelRoutes.0.targets model-routing:errors.targetsRequired'])
    expect(
      routeErrors([
        route({
          targets: [
            { model: 'a', weight: '1' },
            { model: 'a', weight: '2' },
          ],
        }),
      ])
    ).toEqual(['ModelRoutes.0.targets.1.model model-routing:errors.targetTwice'])
    expect(routeErrors([route(), route()])).toEqual(['ModelRoutes.1.model model-routing:errors.routeTwice'])
    // The same model for two scopes is two routes.
    expect(routeErrors([route(), route({ scope: 'group', group: 'vip' }), route({ scope: 'key', token_id: '3' })])).toEqual([])
  })

  it('shows weights as percentages of the route', () => {
    expect(weightPercents(['90', '10'])).toEqual([90, 10])
    expect(weightPercents(['1', '1', '1'])).toEqual([33.3, 33.3, 33.3])
    expect(weightPercents(['3', 'x'])).toEqual([100, 0])
    expect(weightPercents(['0'])).toEqual([0])
  })
})

describe('fallbacks', () => {
  it('round-trips the stored JSON in order, own keys included', () => {
    const stored = '{"gpt-4o":["gpt-4.1","claude-sonnet-4"],"__proto__":["x"]}'
    const rows = fallbacksFromOption(stored)
    expect(rows).toEqual([
      { model: 'gpt-4o', fallbacks: [{ model: 'gpt-4.1' }, { model: 'claude-sonnet-4' }] },
      { model: '__proto__', fallbacks: [{ model: 'x' }] },
    ])
    expect(fallbacksToOption(rows)).toBe(stored)
    expect(modelFallbacksSchema.safeParse(JSON.parse(fallbacksToOption(rows))).success).toBe(true)
    expect(fallbacksFromOption('[]')).toEqual([])
  })

  it('refuses a model falling back to itself, twice-listed fallbacks, duplicate models and cycles', () => {
    expect(fallbackErrors([{ model: 'a', fallbacks: [{ model: 'a' }] }])).toEqual(['ModelFallbacks.0.fallbacks.0.model model-routing:errors.fallbackSelf'])
    expect(fallbackErrors([{ model: 'a', fallbacks: [{ model: 'b' }, { model: 'b' }] }])).toEqual(['ModelFallbacks.0.fallbacks.1.model model-routing:errors.fallbackTwice'])
    expect(fallbackErrors([{ model: 'a', fallbacks: [] }])).toEqual(['ModelFallbacks.0.fallbacks model-routing:errors.fallbacksRequired'])
    expect(
      fallbackErrors([
        { model: 'a', fallbacks: [{ model: 'b' }] },
        { model: 'a', fallbacks: [{ model: 'c' }] },
      ])
    ).toEqual(['ModelFallbacks.1.model model-routing:errors.modelTwice'])
    expect(
      fallbackErrors([
        { model: 'a', fallbacks: [{ model: 'b' }] },
        { model: 'b', fallbacks: [{ model: 'a' }] },
      ])
    ).toEqual(['ModelFallbacks model-routing:errors.fallbackCycle'])
  })
})
