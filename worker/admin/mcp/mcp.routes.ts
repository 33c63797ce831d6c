/**
 * /api/mcp/server/ (admin): the MCP tool servers behind /mcp. Auth headers are write-only: views
 * show only their names; an update without `headers` keeps them, except that a new URL never carries
 * the saved headers along (the save is refused until they are typed again). The OAuth
 * client-credentials grant likewise: views show it without its client_secret; an update without
 * `oauth` keeps it, one without `client_secret` keeps the stored secret unless the URL or the token
 * URL changed (refused until it is typed again); null removes it. URLs and token URLs pass the outbound
 * guard. `:id/test` connects, lists the tools and caches them (also the refresh button); every write
 * leaves a manage-log row (headers only as changed or unchanged).
 */
import { Hono, type Context } from 'hono'
import { eq } from 'drizzle-orm'
import { z } from 'zod'
import { createDb } from '../../db/client'
import { mcpServers, type McpServer } from '../../db/schema'
import { isUniqueViolation } from '../../db/errors'
import { adminRoute, userRoute } from '../../middleware/access'
import { ApiError, badRequest, conflict, notFound } from '../../lib/errors'
import { ok } from '../../lib/respond'
import { accepting, idParam, validate } from '../../lib/validate'
import { assertOutboundUrls } from '../../lib/outbound-url'
import { clientIp } from '../../lib/client-ip'
import { nowSeconds } from '../../lib/time'
import { auditLog } from '../../logs/audit-log'
import { gatewayToolName, groupTools, mcpServerSnapshot, refreshTools } from '../../channels/mcp-servers'
import { ROLE } from '../../../shared/contract/enums'
import { groupExists } from '../groups/groups.service'
import { McpUpstreamError } from '../../channels/mcp-upstream'
import type { HonoEnv } from '../../env'
import type { McpGroupTool, McpOAuthConfig, McpServerBody, McpServerView, McpToolList } from '../../../shared/contract/mcp'

const headerName = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/

const toolsQuery = z.object({ group: z.string().trim().max(32).default('') })

const fields = accepting<McpServerBody>()(
  z.object({
    name: z.string().regex(/^[a-z0-9_-]{1,32}$/, 'lower-case letters, digits, _ and - only (at most 32)'),
    url: z.string().trim().min(1, 'URL is required').max(2000),
    headers: z
      .record(z.string().regex(headerName, 'not a valid header name'), z.string().max(4000))
      .refine((h) => Object.keys(h).length <= 20, 'at most 20 headers')
      .optional(),
    oauth: z
      .object({
        token_url: z.string().trim().min(1, 'token URL is required').max(2000).regex(/^\S+$/, 'one URL'),
        client_id: z.string().trim().min(1, 'client id is required').max(500),
        client_secret: z.string().min(1).max(4000).optional(),
        scope: z.string().trim().max(1000).optional(),
      })
      .nullable()
      .optional(),
    groups: z.array(z.string().trim().min(1).max(32)).max(100).default([]),
    enabled: z.boolean().default(true),
    timeout_ms: z.number().int().min(1000).max(300_000).default(30_000),
    free: z.boolean().default(false),
  })
)

type Fields = z.infer<typeof fields>

/** A server as the console sees it: header names only, never their values. */
function serverView(row: McpServer): McpServerView {
  return {
    id: row.id,
    name: row.name,
    url: row.url,
    header_names: Object.keys(row.headers ?? {}),
    oauth: row.oauth ? { token_url: row.oauth.token_url, client_id: row.oauth.client_id, scope: row.oauth.scope ?? '', has_secret: Boolean(row.oauth.client_secret) } : null,
    groups: row.groups,
    enabled: row.enabled,
    timeout_ms: row.timeoutMs,
    free: row.free,
    created_time: row.createdTime,
    updated_time: row.updatedTime,
  }
}

async function findServer(env: Env, id: number): Promise<McpServer> {
  const [row] = await createDb(env.DB).select().from(mcpServers).where(eq(mcpServers.id, id)).limit(1)
  if (!row) throw notFound('MCP server not found')
  return row
}

function columns(f: Fields, headers: Record<string, string>, oauth: McpOAuthConfig | null) {
  return { name: f.name, url: f.url, headers, oauth, groups: f.groups, enabled: f.enabled, timeoutMs: f.timeout_ms, free: f.free, updatedTime: nowSeconds() }
}

/** One manage-log row naming what a write changed (headers only as changed or unchanged). */
async function audit(c: Context<HonoEnv>, action: 'create' | 'update' | 'delete', before: McpServer | null, after: McpServer | null) {
  const [old, now] = [before && serverView(before), after && serverView(after)]
  const keys = (['name', 'url', 'groups', 'enabled', 'timeout_ms', 'free'] as const).filter((k) => JSON.stringify(old?.[k]) !== JSON.stringify(now?.[k]))
  const changes: Record<string, unknown> = Object.fromEntries(keys.map((k) => [k, { old: old?.[k] ?? null, new: now?.[k] ?? null }]))
  if (JSON.stringify(before?.headers ?? {}) !== JSON.stringify(after?.headers ?? {})) changes.headers = 'changed'
  if (JSON.stringify(before?.oauth ?? null) !== JSON.stringify(after?.oauth ?? null)) changes.oauth = 'changed'
  const actor = c.get('user')!
  const name = (after ?? before)!.name
  await auditLog(c.env, actor, actor, `mcp_server.${action} ${name}: ${Object.keys(changes).join(', ') || 'no change'}`, { mcp_server: name, changes }, clientIp(c.req))
}

const secretAgain = (why: string) => badRequest(`oauth.client_secret: ${why}; type the client secret again`, { fields: { 'oauth.client_secret': 'required' } })

/**
 * The grant to store: the body's (checked by the outbound guard), with the stored secret when the
 * body leaves it out and neither the URL nor the token URL changed; `undefined` keeps the stored grant.
 */
function grantOf(env: Env, body: Fields, current: McpServer | null): McpOAuthConfig | null {
  const o = body.oauth
  if (o === null) return null
  if (o === undefined) {
    if (current?.oauth && body.url !== current.url) throw secretAgain('a new URL does not take the saved OAuth client secret along (or send "oauth": null)')
    return current?.oauth ?? null
  }
  assertOutboundUrls(env, o.token_url, 'oauth.token_url')
  let secret = o.client_secret
  if (secret === undefined) {
    if (!current?.oauth) throw secretAgain('there is no stored secret')
    if (current.oauth.token_url !== o.token_url || current.url !== body.url) throw secretAgain('a new URL or token URL does not take the saved secret along')
    secret = current.oauth.client_secret
  }
  return { token_url: o.token_url, client_id: o.client_id, client_secret: secret, ...(o.scope ? { scope: o.scope } : {}) }
}

/** List the server's tools now (the test and refresh buttons): its tools, or why it failed. */
async function listNow(env: Env, row: McpServer): Promise<McpToolList> {
  const entry = {
    id: row.id,
    name: row.name,
    url: row.url,
    headers: row.headers,
    oauth: row.oauth,
    groups: row.groups,
    timeoutMs: row.timeoutMs,
    free: row.free,
    updatedTime: row.updatedTime,
  }
  try {
    const { tools, listedAt } = await refreshTools(env, entry)
    return {
      ok: true,
      listed_at: listedAt,
      tools: tools.map((t) => ({ name: t.name, gateway_name: gatewayToolName(row.name, t.name), description: t.description ?? '', input_schema: t.inputSchema })),
    }
  } catch (err) {
    if (err instanceof McpUpstreamError) throw new ApiError(502, err.message, { code: err.timedOut ? 'mcp_server_timeout' : 'mcp_server_error' })
    throw err
  }
}

export const mcpServerRoutes = new Hono<HonoEnv>()
  // The tool names a key of `group` ('' = the caller's own) could reach: suggestions for a key's allowlist.
  .get('/mcp/tools', userRoute, validate('query', toolsQuery), async (c) => {
    const user = c.get('user')!
    const group = c.req.valid('query').group || user.group
    if (group !== user.group && !(await groupExists(c.env, group, { publicOnly: user.role < ROLE.ADMIN }))) {
      throw badRequest(`group: "${group}" is not available to you`, { fields: { group: 'not allowed' } })
    }
    const tools = await groupTools(c.env, group, c.executionCtx)
    return ok(
      c,
      tools.map((t): McpGroupTool => ({ name: t.name, description: t.tool.description ?? '' }))
    )
  })
  .get('/mcp/server/', adminRoute, async (c) => ok(c, (await createDb(c.env.DB).select().from(mcpServers).orderBy(mcpServers.id)).map(serverView)))
  .get('/mcp/server/:id{[0-9]+}', adminRoute, validate('param', idParam), async (c) => ok(c, serverView(await findServer(c.env, c.req.valid('param').id))))
  .post('/mcp/server/', adminRoute, validate('json', fields), async (c) => {
    const body = c.req.valid('json')
    assertOutboundUrls(c.env, body.url, 'url')
    try {
      const [row] = await createDb(c.env.DB)
        .insert(mcpServers)
        .values({ ...columns(body, body.headers ?? {}, grantOf(c.env, body, null)), createdTime: nowSeconds() })
        .returning()
      await mcpServerSnapshot.invalidate(c.env)
      await audit(c, 'create', null, row!)
      return ok(c, serverView(row!), 'Created')
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict('An MCP server with this name already exists')
      throw err
    }
  })
  .put('/mcp/server/:id{[0-9]+}', adminRoute, validate('param', idParam), validate('json', fields), async (c) => {
    const body = c.req.valid('json')
    const current = await findServer(c.env, c.req.valid('param').id)
    assertOutboundUrls(c.env, body.url, 'url')
    if (body.url !== current.url && body.headers === undefined && Object.keys(current.headers ?? {}).length > 0) {
      throw badRequest('headers: a new URL does not take the saved headers along; type them again (or send {} to drop them)', {
        fields: { headers: 'required when the URL changes' },
      })
    }
    const grant = grantOf(c.env, body, current)
    try {
      const [row] = await createDb(c.env.DB)
        .update(mcpServers)
        .set(columns(body, body.headers ?? current.headers, grant))
        .where(eq(mcpServers.id, current.id))
        .returning()
      await mcpServerSnapshot.invalidate(c.env)
      await audit(c, 'update', current, row!)
      return ok(c, serverView(row!), 'Updated')
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict('An MCP server with this name already exists')
      throw err
    }
  })
  .delete('/mcp/server/:id{[0-9]+}', adminRoute, validate('param', idParam), async (c) => {
    const current = await findServer(c.env, c.req.valid('param').id)
    await createDb(c.env.DB).delete(mcpServers).where(eq(mcpServers.id, current.id))
    await mcpServerSnapshot.invalidate(c.env)
    await audit(c, 'delete', current, null)
    return ok(c, null, 'Deleted')
  })
  // Test and refresh both list the tools now and replace the cached list; neither changes the server.
  .post('/mcp/server/:id{[0-9]+}/test', adminRoute, validate('param', idParam), async (c) => ok(c, await listNow(c.env, await findServer(c.env, c.req.valid('param').id))))
  .post('/mcp/server/:id{[0-9]+}/refresh', adminRoute, validate('param', idParam), async (c) => ok(c, await listNow(c.env, await findServer(c.env, c.req.valid('param').id))))
