/**
 * The management API's OpenAPI document (GET /api/openapi.json, admins and root): the types the
 * reference page reads from it, and its query. The document is a file, not an envelope; a refusal
 * still comes in the `{success:false,message}` envelope and becomes an ApiError.
 */
import { queryOptions } from '@tanstack/react-query'
import { ApiError, xsrfToken } from '@/lib/api-client'
import { apiCredentials, apiUrl } from '@/lib/api-origin'

/** A JSON Schema (2020-12) node as z.toJSONSchema writes it; only the keys the page shows. */
export interface JsonSchema {
  type?: string | string[]
  properties?: Record<string, JsonSchema>
  required?: string[]
  items?: JsonSchema
  additionalProperties?: JsonSchema | boolean
  anyOf?: JsonSchema[]
  oneOf?: JsonSchema[]
  allOf?: JsonSchema[]
  enum?: unknown[]
  const?: unknown
  default?: unknown
  description?: string
  format?: string
  pattern?: string
  minimum?: number
  maximum?: number
  exclusiveMinimum?: number
  exclusiveMaximum?: number
  minLength?: number
  maxLength?: number
  minItems?: number
  maxItems?: number
}

export interface ApiParameter {
  name: string
  in: 'path' | 'query' | 'header' | 'cookie'
  required: boolean
  schema: JsonSchema
  description?: string
}

export type Role = 'guest' | 'user' | 'admin' | 'root'

export interface ApiOperation {
  operationId: string
  summary: string
  tags: string[]
  'x-role': Role
  description: string
  security: Record<string, string[]>[]
  parameters?: ApiParameter[]
  requestBody?: { required: boolean; content: Record<string, { schema: JsonSchema }> }
  responses: Record<string, { $ref?: string }>
}

export interface OpenApiDocument {
  openapi: string
  info: { title: string; version: string; description: string }
  tags: { name: string }[]
  paths: Record<string, Record<string, ApiOperation>>
}

export const OPENAPI_URL = '/api/openapi.json'

export interface Endpoint {
  method: string
  path: string
  operation: ApiOperation
}

/** The document's operations grouped by tag (tags in the document's order, endpoints by path). */
export function endpointsByTag(doc: OpenApiDocument): { tag: string; endpoints: Endpoint[] }[] {
  const groups = new Map<string, Endpoint[]>(doc.tags.map((t) => [t.name, []]))
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const tag = operation.tags[0] ?? 'other'
      if (!groups.has(tag)) groups.set(tag, [])
      groups.get(tag)!.push({ method: method.toUpperCase(), path, operation })
    }
  }
  return [...groups.entries()]
    .filter(([, list]) => list.length > 0)
    .map(([tag, endpoints]) => ({ tag, endpoints: endpoints.sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method)) }))
}

async function fetchDocument(signal?: AbortSignal): Promise<OpenApiDocument> {
  const headers: Record<string, string> = { Accept: 'application/json' }
  const xsrf = xsrfToken()
  if (xsrf) headers['X-XSRF-TOKEN'] = xsrf
  let res: Response
  try {
    res = await fetch(apiUrl(OPENAPI_URL), { credentials: apiCredentials, headers, signal })
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err
    throw new ApiError(0, err instanceof Error ? err.message : String(err))
  }
  const body = (await res.json().catch(() => undefined)) as (OpenApiDocument & { message?: string }) | undefined
  if (!res.ok || !body?.openapi) throw new ApiError(res.status, body?.message || res.statusText || `HTTP ${res.status}`)
  return body
}

export const openApiQueryOptions = queryOptions({
  queryKey: ['openapi-document'],
  queryFn: ({ signal }) => fetchDocument(signal),
  staleTime: Infinity,
})
