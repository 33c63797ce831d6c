/**
 * Cross-model fallbacks: the ordered models one relay request may be answered by. The requested
 * model comes first; then the request's own `models` list (OpenRouter's shape, read and stripped
 * from the body by relay-input.ts; refused with 403 when the key may not use one of them), else
 * root's `ModelFallbacks` setting for the requested model (validated on write in
 * shared/contract/option-checks.ts), without the models the key may not use. relay-request.ts walks
 * the list when every channel of a model failed or none serves it; a pinned channel never falls back.
 */
import { assertModelAllowed, type RelayAuth } from '../access/token-auth'
import type { Settings } from '../settings/store'
import type { RelayInput } from './relay-input'

/** The parsed setting, kept while its raw text stays the same (no JSON parse on the warm path). */
let parsed: { raw: string; map: Record<string, string[]> } | undefined

function configured(settings: Settings): Record<string, string[]> {
  const raw = settings.raw.ModelFallbacks ?? '{}'
  if (parsed?.raw !== raw) {
    const value = settings.json<unknown>('ModelFallbacks')
    parsed = { raw, map: value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, string[]>) : {} }
  }
  return parsed.map
}

/** The models to try in order, the requested one first, each once. */
export function modelChain(settings: Settings, auth: RelayAuth, input: RelayInput): string[] {
  if (auth.pinChannel !== undefined) return [input.model]
  if (input.models) {
    for (const m of input.models) assertModelAllowed(auth, m)
    return [...new Set([input.model, ...input.models])]
  }
  const map = configured(settings)
  const list = Object.hasOwn(map, input.model) && Array.isArray(map[input.model]) ? map[input.model]! : []
  const allowed = list.filter((m) => typeof m === 'string' && (!auth.models || auth.models.includes(m)))
  return [...new Set([input.model, ...allowed])]
}
