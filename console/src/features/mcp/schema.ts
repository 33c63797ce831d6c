/**
 * Form schema of an MCP tool server: the name (`^[a-z0-9_-]{1,32}$`, the prefix of its tools), the
 * URL, auth headers as `Name: value` lines (write-only: left empty when editing, the stored ones
 * stay), an optional OAuth client-credentials grant (token URL, client id, scope; the client secret
 * write-only like the headers: left empty when editing, the stored one stays; an empty token URL
 * removes the grant), the groups (comma-separated, none = every group), the timeout in ms, enabled and free.
 */
import { z } from 'zod'
import type { McpServerBody, McpServerView } from '@contract/mcp'

const headerLine = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+\s*:\s*.+$/

const isUrl = (v: string) => z.string().url().safeParse(v).success

export const serverFormSchema = z
  .object({
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
    oauth_token_url: z
      .string()
      .trim()
      .refine((v) => v === '' || isUrl(v), 'mcp:validation.url'),
    oauth_client_id: z.string().trim(),
    oauth_client_secret: z.string(),
    oauth_scope: z.string().trim(),
    groups: z.string(),
    timeout_ms: z
      .string()
      .trim()
      .refine((v) => /^\d+$/.test(v) && Number(v) >= 1000 && Number(v) <= 300_000, 'mcp:validation.timeout'),
    enabled: z.boolean(),
    free: z.boolean(),
  })
  .refine((v) => v.oauth_token_url === '' || v.oauth_client_id !== '', { path: ['oauth_client_id'], message: 'mcp:validation.clientId' })

export type ServerFormValues = z.infer<typeof serverFormSchema>

export const formDefaults = (row?: McpServerView): ServerFormValues => ({
  name: row?.name ?? '',
  url: row?.url ?? '',
  headers: '',
  oauth_token_url: row?.oauth?.token_url ?? '',
  oauth_client_id: row?.oauth?.client_id ?? '',
  oauth_client_secret: '',
  oauth_scope: row?.oauth?.scope ?? '',
  groups: row?.groups.join(', ') ?? '',
  timeout_ms: String(row?.timeout_ms ?? 30000),
  enabled: row?.enabled ?? true,
  free: row?.free ?? false,
})

/** The grant to send: none typed removes a stored one (null); a secret only when typed (the stored one stays). */
function oauthOf(v: ServerFormValues, row?: McpServerView): McpServerBody['oauth'] {
  if (v.oauth_token_url === '') return row?.oauth ? null : undefined
  return {
    token_url: v.oauth_token_url,
    client_id: v.oauth_client_id,
    ...(v.oauth_client_secret ? { client_secret: v.oauth_client_secret } : {}),
    ...(v.oauth_scope ? { scope: v.oauth_scope } : {}),
  }
}

/** The request body: headers only when typed (editing without them keeps the stored ones). */
export function toBody(v: ServerFormValues, row?: McpServerView): McpServerBody {
  const oauth = oauthOf(v, row)
  const lines = v.headers
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
  const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).trim(), l.slice(l.indexOf(':') + 1).trim()]))
  return {
    name: v.name,
    url: v.url,
    ...(lines.length > 0 ? { headers } : {}),
    ...(oauth !== undefined ? { oauth } : {}),
    groups: v.groups
      .split(',')
      .map((g) => g.trim())
      .filter(Boolean),
    timeout_ms: Number(v.timeout_ms),
    enabled: v.enabled,
    free: v.free,
  }
}
