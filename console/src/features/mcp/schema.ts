/**
 * Form schema of an MCP tool server: the name (`^[a-z0-9_-]{1,32}$`, the prefix of its tools), the
 * URL, auth headers as `Name: value` lines (write-only: left empty when editing, the stored ones
 * stay), the groups (comma-separated, none = every group), the timeout in ms, enabled and free.
 */
import { z } from 'zod'
import type { McpServerBody, McpServerView } from '@contract/mcp'

const headerLine = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+\s*:\s*.+$/

export const serverFormSchema = z.object({
  name: z
    .string()
    .trim()
    .regex(/^[a-z0-9_-]{1,32}$/, 'mcp:validation.name'),
  url: z.string().trim().url('mcp:validation.url'),
  headers: z.string().refine(
    (v) =>
      v
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean)
        .every((l) => headerLine.test(l)),
    'mcp:validation.headers'
  ),
  groups: z.string(),
  timeout_ms: z
    .string()
    .trim()
    .refine((v) => /^\d+$/.test(v) && Number(v) >= 1000 && Number(v) <= 300_000, 'mcp:validation.timeout'),
  enabled: z.boolean(),
  free: z.boolean(),
})

export type ServerFormValues = z.infer<typeof serverFormSchema>

export const formDefaults = (row?: McpServerView): ServerFormValues => ({
  name: row?.name ?? '',
  url: row?.url ?? '',
  headers: '',
  groups: row?.groups.join(', ') ?? '',
  timeout_ms: String(row?.timeout_ms ?? 30000),
  enabled: row?.enabled ?? true,
  free: row?.free ?? false,
})

/** The request body: headers only when typed (editing without them keeps the stored ones). */
export function toBody(v: ServerFormValues): McpServerBody {
  const lines = v.headers
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
  const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).trim(), l.slice(l.indexOf(':') + 1).trim()]))
  return {
    name: v.name,
    url: v.url,
    ...(lines.length > 0 ? { headers } : {}),
    groups: v.groups
      .split(',')
      .map((g) => g.trim())
      .filter(Boolean),
    timeout_ms: Number(v.timeout_ms),
    enabled: v.enabled,
    free: v.free,
  }
}
