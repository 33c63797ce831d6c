/**
 * An API key's MCP tool allowlist (the token field `mcp_tools`): patterns over gateway tool names
 * (`<server>__<tool>`) where `*` stands for any run of characters, e.g. `calc__*` or `*__search`.
 * No list, or an empty one, allows every tool of the key's group.
 */

/** The JSON list stored in the token row ('' = none); anything that is not a list of strings is none. */
export function parseMcpTools(raw: unknown): string[] {
  if (!raw) return []
  try {
    const list = typeof raw === 'string' ? JSON.parse(raw) : raw
    return Array.isArray(list) ? list.filter((p): p is string => typeof p === 'string' && p.length > 0) : []
  } catch {
    return []
  }
}

const literal = (s: string) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')

/** A matcher for `patterns`; an empty list matches every name. */
export function mcpToolMatcher(patterns: string[]): (name: string) => boolean {
  if (patterns.length === 0) return () => true
  const re = new RegExp(`^(?:${patterns.map((p) => p.split('*').map(literal).join('.*')).join('|')})$`)
  return (name) => re.test(name)
}
