/**
 * Weighted routes (canary): root's `ModelRoutes` sends a requested model — for one API key (by its
 * id), one group, or every group; the key's own rule first, then its group's — to weighted target models, e.g. 90 % gpt-4o and 10 %
 * gpt-4.1. A request with an affinity key (channels/affinity.ts: prompt_cache_key, user, or its
 * prompt prefix) keeps its target by rendezvous hashing, so a conversation stays on one model and
 * its supplier's prompt cache stays warm; one without a key is split at random. The request then
 * is the target's (its channels, price and fallbacks); the log row keeps `routed_from`. A target the
 * API key may not use is never chosen. Validated on write in shared/contract/option-checks.ts.
 */
import { affinityKey, rendezvousPick } from '../channels/affinity'
import type { RelayAuth } from '../access/token-auth'
import type { Settings } from '../settings/store'
import type { RelayInput } from './relay-input'

interface Target {
  model: string
  weight: number
}
interface Rule {
  model: string
  group?: string
  token_id?: number
  targets: Target[]
}

/** The map key of a rule: `model\0k:<token id>`, `model\0g:<group>`, or `model\0` for every group. */
const scopeKey = (model: string, scope: { group?: string; tokenId?: number }) =>
  `${model}\u0000${scope.tokenId !== undefined ? `k:${scope.tokenId}` : scope.group !== undefined ? `g:${scope.group}` : ''}`

/** Rules by scope key, kept while the setting's raw text stays the same. */
let parsed: { raw: string; rules: Map<string, Target[]> } | undefined

function rules(settings: Settings): Map<string, Target[]> {
  const raw = settings.raw.ModelRoutes ?? '[]'
  if (parsed?.raw === raw) return parsed.rules
  const list = settings.json<unknown>('ModelRoutes')
  const map = new Map<string, Target[]>()
  if (Array.isArray(list)) for (const r of list as Rule[]) if (r && Array.isArray(r.targets)) map.set(scopeKey(r.model, { group: r.group, tokenId: r.token_id }), r.targets)
  parsed = { raw, rules: map }
  return map
}

/** One target: by rendezvous hashing on `key` (sticky), else weighted at random. */
export function pickTarget(targets: readonly Target[], key: string | undefined, random: () => number = Math.random): Target | undefined {
  if (key)
    return rendezvousPick(
      targets,
      key,
      (t) => t.model,
      (t) => t.weight
    )
  const total = targets.reduce((s, t) => s + t.weight, 0)
  let r = random() * total
  for (const t of targets) {
    r -= t.weight
    if (r < 0) return t
  }
  return targets[targets.length - 1]
}

/** The model `model` is routed to for the key `tokenId` of `group` (the key's rule, then the group's, then every group's), or undefined without a rule. */
export function routedModel(settings: Settings, group: string, model: string, key: string | undefined, allowed?: (m: string) => boolean, tokenId?: number): string | undefined {
  const map = rules(settings)
  const targets = (tokenId !== undefined ? map.get(scopeKey(model, { tokenId })) : undefined) ?? map.get(scopeKey(model, { group })) ?? map.get(scopeKey(model, {}))
  if (!targets) return undefined
  return pickTarget(allowed ? targets.filter((t) => allowed(t.model)) : targets, key)?.model
}

/** Route the request: its model becomes the chosen target, remembering the requested one. A pinned channel is never rerouted. */
export function applyModelRoute(settings: Settings, auth: RelayAuth, input: RelayInput): void {
  if (auth.pinChannel !== undefined) return
  const allowed = auth.models ? (m: string) => auth.models!.includes(m) : undefined
  const target = routedModel(settings, auth.group, input.model, affinityKey(input.model, input.json), allowed, auth.id)
  if (!target || target === input.model) return
  input.routedFrom = input.model
  input.model = target
  if (input.json) input.json.model = target
}
