/**
 * Affinity (sticky routing): requests that share an affinity key go to the same channel and key
 * while that channel is usable and in the chosen priority tier, so suppliers' prompt caches stay warm.
 * The key is the client's `prompt_cache_key`, else `user`, else Anthropic `metadata.user_id`, else a
 * hash of the system prompt plus the first message. The choice is rendezvous (highest random
 * weight) hashing over the candidates: deterministic in every isolate without shared state, it
 * respects channel weights, and only requests whose winner drops out (frozen, tried, disabled) move.
 */

/** Messages (after the system prompt) that identify a conversation: the first one, so later turns keep the key. */
const PREFIX_MESSAGES = 1
/**
 * Characters of that prefix hashed: enough to tell conversations apart, and requests sharing a
 * longer system prompt share its cached prefix anyway (clients may set prompt_cache_key).
 */
const PREFIX_CHARS = 4096

/** Multiply-xorshift finish of a 32-bit hash. */
function mix(h: number): number {
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  h ^= h >>> 16
  return h >>> 0
}

/** 32-bit FNV-1a of a string with a seed, mixed. */
function hash32(text: string, seed: number): number {
  let h = (0x811c9dc5 ^ seed) >>> 0
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193)
  return mix(h)
}

const hex8 = (n: number) => n.toString(16).padStart(8, '0')

/** A stable 16-hex-digit hash (two seeded FNV-1a lanes in one pass), used for affinity keys and key identities. */
export function stableHash(text: string): string {
  let a = 0x811c9dc5
  let b = (0x811c9dc5 ^ 0x9e3779b9) >>> 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    a = Math.imul(a ^ c, 0x01000193)
    b = Math.imul(b ^ c, 0x01000193)
  }
  return hex8(mix(a)) + hex8(mix(b))
}

/** A uniform number in (0, 1) from a string. */
function unit(text: string): number {
  return (hash32(text, 0x27d4eb2f) + 0.5) / 4294967296
}

/** A message's text for the prefix: string content, or its text parts (images and files by type only). */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  return content.map((part) => (part && typeof part === 'object' ? String((part as { text?: unknown }).text ?? (part as { type?: unknown }).type ?? '') : '')).join('\u0002')
}

/**
 * Hash of the roles and texts of the system messages and the first other message, fed straight
 * into the hash (no copy of a long prompt) and cut after PREFIX_CHARS characters.
 */
function prefixHash(messages: { role?: unknown; content?: unknown }[]): string {
  const system = messages.filter((m) => m?.role === 'system' || m?.role === 'developer')
  const rest = messages.filter((m) => m?.role !== 'system' && m?.role !== 'developer').slice(0, PREFIX_MESSAGES)
  let h = 0x811c9dc5
  let left = PREFIX_CHARS
  for (const m of [...system, ...rest]) {
    for (const text of [`${String(m?.role)}\u0000`, contentText(m?.content), '\u0001']) {
      const n = Math.min(text.length, left)
      for (let i = 0; i < n; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193)
      left -= n
    }
    if (left <= 0) break
  }
  return hex8(mix(h))
}

const str = (v: unknown, max = 512) => (typeof v === 'string' && v.trim() ? v.trim().slice(0, max) : undefined)

/** The request's affinity key (namespaced by model), or undefined when the body has nothing to stick to. */
export function affinityKey(model: string, json: Record<string, unknown> | undefined): string | undefined {
  if (!json) return undefined
  const metadata = json.metadata && typeof json.metadata === 'object' ? (json.metadata as Record<string, unknown>) : undefined
  const explicit = str(json.prompt_cache_key) ?? str(json.user) ?? str(metadata?.user_id)
  if (explicit) return `${model}|k:${explicit}`
  const messages = Array.isArray(json.messages) ? (json.messages as { role?: unknown; content?: unknown }[]) : undefined
  if (!messages?.length) return undefined
  return `${model}|p:${prefixHash(messages)}`
}

/**
 * Weighted rendezvous hashing: each candidate scores −weight / ln(u(key, id)); the highest wins.
 * Removing a candidate moves only the keys it was winning.
 */
export function rendezvousPick<T>(items: readonly T[], key: string, idOf: (item: T) => string | number, weightOf: (item: T) => number = () => 1): T | undefined {
  let best: T | undefined
  let bestScore = -Infinity
  for (const item of items) {
    const score = -Math.max(1, weightOf(item)) / Math.log(unit(`${key}#${idOf(item)}`))
    if (score > bestScore) {
      bestScore = score
      best = item
    }
  }
  return best
}
