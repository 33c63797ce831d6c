/**
 * The OpenAPI document: OpenAPI 3.1 shape, every /api route of the live table present with its
 * role, and request bodies / parameters that are the zod schemas the routes validate with.
 */
import { describe, expect, it } from 'vitest'
import { app } from '../../app'
import { ACCESS_ROLE } from '../../middleware/access'
import { TestClient, setupRoot, signedInUser } from '../../test/client'
import { createTokenSchema, adminSearchQuery } from '../tokens/tokens.schema'
import { loginSchema } from '../auth/auth.schema'
import { buildOpenApi, tagOf, toOpenApiPath, type OpenApiDocument, type Operation } from './openapi.service'

const METHODS = ['get', 'post', 'put', 'patch', 'delete']

async function fetchDocument(): Promise<OpenApiDocument> {
  const root = await setupRoot()
  const res = await root.get('/api/openapi.json')
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toContain('application/json')
  return res.body as unknown as OpenApiDocument
}

const op = (doc: OpenApiDocument, method: string, path: string): Operation => {
  const found = doc.paths[path]?.[method]
  if (!found) throw new Error(`${method} ${path} missing from the document`)
  return found
}

describe('OpenAPI document', () => {
  it('converts Hono paths and tags', () => {
    expect(toOpenApiPath('/api/user/:id{[0-9]+}')).toBe('/api/user/{id}')
    expect(toOpenApiPath('/api/prices/single/:model{.+}')).toBe('/api/prices/single/{model}')
    expect(toOpenApiPath('/api/log/dead-letters/:id{[0-9]+}/retry')).toBe('/api/log/dead-letters/{id}/retry')
    expect(toOpenApiPath('/api/token/:id/key')).toBe('/api/token/{id}/key')
    expect(tagOf('/api/user_group/:id', '/api')).toBe('group')
    expect(tagOf('/api/token/', '/api')).toBe('token')
  })

  it('is OpenAPI 3.1 and lists every /api route of the app with its role', async () => {
    const doc = await fetchDocument()
    expect(doc.openapi).toBe('3.1.0')
    expect(doc.info.title).toBeTruthy()
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['accessToken', 'session', 'xsrf'])
    expect(doc.components.schemas.Error?.required).toEqual(['success', 'message'])

    const names: Record<number, string> = { 0: 'guest', 1: 'user', 10: 'admin', 100: 'root' }
    const expected = new Map<string, string>()
    for (const r of app.routes) {
      // /api/test/* are test hooks on the outer app (404 unless enabled), not part of the management API.
      if (!r.path.startsWith('/api') || r.path.startsWith('/api/test/') || r.method === 'ALL') continue
      const role = (r.handler as unknown as Record<symbol, number>)[ACCESS_ROLE]
      const key = `${r.method.toLowerCase()} ${toOpenApiPath(r.path)}`
      if (role !== undefined) expected.set(key, names[role]!)
      else if (!expected.has(key)) expected.set(key, '?')
    }
    expect(expected.size).toBeGreaterThan(100)
    const listed = new Map<string, string>()
    const tags = new Set(doc.tags.map((t) => t.name))
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        expect(METHODS).toContain(method)
        listed.set(`${method} ${path}`, operation['x-role'])
        expect(operation.responses.default).toBeDefined()
        expect(tags.has(operation.tags[0]!)).toBe(true)
        // Every {name} in the path is a required path parameter.
        for (const m of path.matchAll(/\{([^}]+)\}/g)) {
          expect(operation.parameters?.find((p) => p.in === 'path' && p.name === m[1])?.required).toBe(true)
        }
      }
    }
    expect(Object.fromEntries(listed)).toEqual(Object.fromEntries(expected))
    expect(op(doc, 'get', '/api/openapi.json')['x-role']).toBe('admin')
    expect(op(doc, 'get', '/api/status').security).toEqual([{}])
    expect(op(doc, 'post', '/api/token/').security).toEqual([{ session: [], xsrf: [] }, { accessToken: [] }])
    expect(op(doc, 'get', '/api/token/').security).toEqual([{ session: [] }, { accessToken: [] }])
    // A GET that hands out a secret is guarded like a POST (requireXsrf).
    expect(op(doc, 'get', '/api/user/token').security).toEqual([{ session: [], xsrf: [] }, { accessToken: [] }])
  })

  it('takes request bodies and parameters from the routes’ zod schemas', async () => {
    const doc = await fetchDocument()
    const body = (method: string, path: string) =>
      op(doc, method, path).requestBody?.content['application/json']?.schema as {
        properties: Record<string, { type?: string; maxLength?: number }>
        required?: string[]
      }

    const create = body('post', '/api/token/')
    expect(Object.keys(create.properties).sort()).toEqual(Object.keys(createTokenSchema.shape).sort())
    expect(create.properties.name).toMatchObject({ type: 'string', maxLength: 50 })
    // Input view: fields with a default are optional for the caller.
    expect(create.required).toEqual(['name'])

    const login = body('post', '/api/user/login')
    expect(Object.keys(login.properties).sort()).toEqual(Object.keys(loginSchema.shape).sort())
    expect(login.required?.sort()).toEqual(['password', 'username'])

    const search = op(doc, 'get', '/api/token/admin/search')
    expect(
      search
        .parameters!.filter((p) => p.in === 'query')
        .map((p) => p.name)
        .sort()
    ).toEqual(Object.keys(adminSearchQuery.shape).sort())
    expect(search['x-role']).toBe('admin')
    expect(search.responses['403']).toBeDefined()

    const reveal = op(doc, 'post', '/api/token/admin/{id}/key')
    expect(reveal['x-role']).toBe('root')
    expect(reveal.parameters).toEqual([expect.objectContaining({ name: 'id', in: 'path', required: true, schema: expect.objectContaining({ type: 'integer' }) })])
  })

  it('is built once per isolate and reused', async () => {
    const root = await setupRoot()
    const first = await (await root.raw('GET', '/api/openapi.json')).text()
    const second = await (await root.raw('GET', '/api/openapi.json')).text()
    expect(second).toBe(first)
    const started = performance.now()
    buildOpenApi(
      app.routes.filter((r) => r.path.startsWith('/api')),
      { prefix: '', version: 'x' }
    )
    // A cold build stays cheap (measured ~tens of ms in workerd); the cache makes later calls free.
    expect(performance.now() - started).toBeLessThan(2000)
  })

  it('is for administrators: anonymous 401, users 403, admins and root 200', async () => {
    const root = await setupRoot()
    const { client: user } = await signedInUser('openapiuser')
    const { client: admin, id: adminId } = await signedInUser('openapiadmin')
    expect((await root.post('/api/user/manage', { id: adminId, action: 'promote' })).status).toBe(200)
    expect((await new TestClient().get('/api/openapi.json')).status).toBe(401)
    expect((await user.get('/api/openapi.json')).status).toBe(403)
    expect((await admin.get('/api/openapi.json')).status).toBe(200)
    expect((await root.get('/api/openapi.json')).status).toBe(200)
  })
})
