/**
 * Builds the OpenAPI 3.1 document of the management API from the live route table: every route's
 * method and path, its minimum role (the `access()` marker), and the zod schemas its `validate()`
 * middlewares carry (path/query/header parameters, JSON or form bodies), converted with zod 4's
 * `z.toJSONSchema`. Built lazily once per isolate (first call) and cached; the relay never loads it.
 */
import type { RouterRoute } from 'hono/types'
import { z } from 'zod'
import { ACCESS_ROLE } from '../../middleware/access'
import { XSRF_HEADER } from '../../middleware/csrf'
import { SESSION_COOKIE } from '../../accounts/session'
import { requireXsrf } from '../oauth/require-xsrf'
import { VALIDATED, type ValidatedInput } from '../../lib/validate'
import { ROLE } from '../../../shared/contract/enums'

type JsonSchema = Record<string, unknown> & { properties?: Record<string, JsonSchema>; required?: string[]; description?: string }

interface Parameter {
  name: string
  in: 'path' | 'query' | 'header' | 'cookie'
  required: boolean
  schema: JsonSchema
  description?: string
}

export interface Operation {
  operationId: string
  summary: string
  tags: string[]
  'x-role': RoleName
  description: string
  security: Record<string, string[]>[]
  parameters?: Parameter[]
  requestBody?: { required: boolean; content: Record<string, { schema: JsonSchema }> }
  responses: Record<string, { $ref: string }>
}

export interface OpenApiDocument {
  openapi: '3.1.0'
  info: { title: string; version: string; description: string }
  servers: { url: string }[]
  tags: { name: string }[]
  paths: Record<string, Record<string, Operation>>
  components: { securitySchemes: Record<string, unknown>; schemas: Record<string, JsonSchema>; responses: Record<string, unknown> }
}

export type RoleName = 'guest' | 'user' | 'admin' | 'root'
const ROLE_NAMES: Record<number, RoleName> = { [ROLE.GUEST]: 'guest', [ROLE.USER]: 'user', [ROLE.ADMIN]: 'admin', [ROLE.ROOT]: 'root' }
const ROLE_TEXT: Record<RoleName, string> = {
  guest: 'Public: no sign-in needed.',
  user: 'Any signed-in user (role ≥ 1).',
  admin: 'Administrators and root (role ≥ 10).',
  root: 'Root only (role 100).',
}

/** Path prefixes that belong to another feature's tag (the first path segment names the rest). */
const TAG_ALIASES: Record<string, string> = {
  about: 'status',
  notice: 'status',
  home_page_content: 'status',
  setup: 'auth',
  reset_password: 'auth',
  verification: 'auth',
  oauth: 'auth',
  user_group: 'group',
  user_group_map: 'group',
  available_model: 'prices',
  analytics: 'dashboard',
  mj: 'task',
}

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

/** Hono `/user/:id{[0-9]+}` → OpenAPI `/user/{id}` (regex constraints and `?` dropped). */
export function toOpenApiPath(path: string): string {
  return path.replace(/:([A-Za-z0-9_]+)(\{(?:[^{}]|\{[^}]*\})*\})?\??/g, '{$1}')
}

export function pathParamNames(path: string): string[] {
  return [...toOpenApiPath(path).matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!)
}

export function tagOf(path: string, prefix: string): string {
  const first = path.slice(prefix.length).split('/').filter(Boolean)[0] ?? 'status'
  return TAG_ALIASES[first] ?? first
}

/** zod → JSON Schema 2020-12 as a client sends it (defaults optional, coercions as their input). */
export function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  try {
    const out = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema
    delete out.$schema
    return out
  } catch {
    return {}
  }
}

function operationId(method: string, path: string): string {
  const words = path
    .replace(/[{}]/g, '')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
  return [method.toLowerCase(), ...words.map((w) => w[0]!.toUpperCase() + w.slice(1))].join('')
}

function parametersOf(inputs: ValidatedInput[], path: string): Parameter[] {
  const params: Parameter[] = []
  const place = { param: 'path', query: 'query', header: 'header', cookie: 'cookie' } as const
  for (const input of inputs) {
    const where = place[input.target as keyof typeof place]
    if (!where) continue
    const schema = jsonSchemaOf(input.schema)
    const required = new Set(schema.required ?? [])
    for (const [name, prop] of Object.entries(schema.properties ?? {})) {
      const { description, ...rest } = prop
      params.push({ name, in: where, required: where === 'path' || required.has(name), schema: rest, ...(description ? { description } : {}) })
    }
  }
  // Path parameters without a validator are still part of the path (plain strings).
  for (const name of pathParamNames(path)) {
    if (!params.some((p) => p.in === 'path' && p.name === name)) params.push({ name, in: 'path', required: true, schema: { type: 'string' } })
  }
  return params
}

function requestBodyOf(inputs: ValidatedInput[]): Operation['requestBody'] {
  const content: Record<string, { schema: JsonSchema }> = {}
  for (const input of inputs) {
    if (input.target === 'json') content['application/json'] = { schema: jsonSchemaOf(input.schema) }
    if (input.target === 'form') {
      const schema = jsonSchemaOf(input.schema)
      content['multipart/form-data'] = { schema }
      content['application/x-www-form-urlencoded'] = { schema }
    }
  }
  return Object.keys(content).length ? { required: true, content } : undefined
}

/** Shared responses, referenced from every operation (keeps the document small). */
const RESPONSES = {
  Success: 'Success envelope; `data` holds the result.',
  BadRequest: 'Invalid input: `data.fields` maps each field to its message.',
  Unauthorized: 'Not signed in.',
  Forbidden: 'Role too low.',
  Error: 'Any other failure, in the management error envelope.',
} as const
const ref = (name: keyof typeof RESPONSES) => ({ $ref: `#/components/responses/${name}` })

function responsesOf(role: number, validated: boolean): Operation['responses'] {
  return {
    '200': ref('Success'),
    ...(validated ? { '400': ref('BadRequest') } : {}),
    ...(role > ROLE.GUEST ? { '401': ref('Unauthorized'), '403': ref('Forbidden') } : {}),
    default: ref('Error'),
  }
}

function sharedResponses() {
  const json = (schema: string) => ({ 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } })
  return Object.fromEntries(Object.entries(RESPONSES).map(([name, description]) => [name, { description, content: json(name === 'Success' ? 'Success' : 'Error') }]))
}

function securityOf(role: number, method: string, xsrfOnGet: boolean): Record<string, string[]>[] {
  if (role <= ROLE.GUEST) return [{}]
  const session: Record<string, string[]> = STATE_CHANGING.has(method) || xsrfOnGet ? { session: [], xsrf: [] } : { session: [] }
  return [session, { accessToken: [] }]
}

interface Collected {
  method: string
  path: string
  roles: number[]
  inputs: ValidatedInput[]
  /** A state-changing GET guarded by requireXsrf (OAuth binding, access token). */
  xsrf: boolean
}

/** Groups the route table's handlers (middlewares and the final handler) per method and path. */
function collect(routes: readonly RouterRoute[], prefix: string): Collected[] {
  const byKey = new Map<string, Collected>()
  for (const r of routes) {
    if (r.method === 'ALL') continue
    const path = prefix + (r.path === '/' ? '' : r.path)
    const key = `${r.method} ${path}`
    const entry = byKey.get(key) ?? { method: r.method, path, roles: [], inputs: [], xsrf: false }
    const handler = r.handler as unknown as Record<symbol, unknown>
    const role = handler[ACCESS_ROLE]
    if (typeof role === 'number') entry.roles.push(role)
    const input = handler[VALIDATED] as ValidatedInput | undefined
    if (input) entry.inputs.push(input)
    if (r.handler === requireXsrf) entry.xsrf = true
    byKey.set(key, entry)
  }
  return [...byKey.values()]
}

export function buildOpenApi(routes: readonly RouterRoute[], options: { prefix: string; version: string }): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {}
  const tags = new Set<string>()
  for (const route of collect(routes, options.prefix)) {
    const role = route.roles.length ? Math.max(...route.roles) : ROLE.GUEST
    const roleName = ROLE_NAMES[role] ?? 'root'
    const path = toOpenApiPath(route.path)
    const tag = tagOf(route.path, options.prefix)
    tags.add(tag)
    const parameters = parametersOf(route.inputs, route.path)
    const requestBody = requestBodyOf(route.inputs)
    const op: Operation = {
      operationId: operationId(route.method, path),
      summary: `${route.method} ${path}`,
      tags: [tag],
      'x-role': roleName,
      description: ROLE_TEXT[roleName],
      security: securityOf(role, route.method, route.xsrf),
      ...(parameters.length ? { parameters } : {}),
      ...(requestBody ? { requestBody } : {}),
      responses: responsesOf(role, route.inputs.length > 0),
    }
    paths[path] = { ...paths[path], [route.method.toLowerCase()]: op }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Edge AI Gateway management API',
      version: options.version,
      description:
        'The management API under /api, generated from the route table and its zod schemas. Every answer is an envelope: `{success, message, data}`. `x-role` is the minimum role of each operation.',
    },
    servers: [{ url: '/' }],
    tags: [...tags].sort().map((name) => ({ name })),
    paths,
    components: {
      responses: sharedResponses(),
      securitySchemes: {
        session: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE, description: 'Console session cookie (set by POST /api/user/login).' },
        xsrf: {
          type: 'apiKey',
          in: 'header',
          name: XSRF_HEADER,
          description: 'With a session cookie, state-changing requests echo the XSRF-TOKEN cookie (__Host-XSRF-TOKEN over https) in this header.',
        },
        accessToken: { type: 'http', scheme: 'bearer', description: 'Personal access token (GET /api/user/token); "Bearer " is optional.' },
      },
      schemas: {
        Success: {
          type: 'object',
          required: ['success', 'message', 'data'],
          properties: { success: { const: true }, message: { type: 'string' }, data: {} },
        },
        Error: {
          type: 'object',
          required: ['success', 'message'],
          properties: { success: { const: false }, message: { type: 'string' }, data: { description: 'Details, e.g. `fields` on invalid input.' } },
        },
      },
    },
  }
}

let cached: string | undefined

/** The document as JSON text, built on the first request of this isolate and reused after. */
export function openApiJson(routes: () => readonly RouterRoute[], options: { prefix: string; version: string }): string {
  cached ??= JSON.stringify(buildOpenApi(routes(), options))
  return cached
}
