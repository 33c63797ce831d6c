/**
 * GET /api/openapi.json (admins and root): the management API's OpenAPI 3.1 document. It lays out
 * the whole admin surface, so it is not public. The route table comes from the caller (admin.routes)
 * so this module does not import the app that mounts it.
 */
import { Hono } from 'hono'
import type { RouterRoute } from 'hono/types'
import { adminRoute } from '../../middleware/access'
import type { HonoEnv } from '../../env'
import { config } from '../../lib/env'
import { openApiJson } from './openapi.service'

export function openApiRoutes(routes: () => readonly RouterRoute[]) {
  return new Hono<HonoEnv>().get('/openapi.json', adminRoute, (c) => {
    const body = openApiJson(routes, { prefix: '/api', version: config(c.env).appVersion })
    return c.body(body, 200, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'private, no-cache' })
  })
}
