/**
 * OpenAI Responses API on the relay: POST /v1/responses (through relay-request.ts with the
 * Responses codec, so any channel serves it and billing is the chat billing; with `mcp` tools
 * through the MCP tool loop, relay/mcp-loop/; stored unless
 * `store: false`, continued with previous_response_id), GET and DELETE /v1/responses/{id} for the
 * key owner's stored responses. Errors in the OpenAI envelope (app.ts renders it for /v1).
 */
import { Hono } from 'hono'
import type { HonoEnv } from '../../../env'
import { relayRequest } from '../../relay-request'
import { admit } from '../../../access/admit'
import { readJsonBody } from '../../relay-input'
import { responsesCodec } from './codec'
import { type ChatMessage, inputMessages, parseResponsesRequest } from './request'
import { responsesWithMcp, usesMcp } from '../../mcp-loop/responses-mcp'
import { assistantTurn } from './response'
import { deleteResponse, loadResponse, saveResponse } from './store'

export const responsesApp = new Hono<HonoEnv>()
  .post('/responses', async (c) => {
    const auth = await admit(c)
    const req = parseResponsesRequest(await readJsonBody(c))
    const history = req.previous_response_id ? (await loadResponse(c.env, auth.userId, req.previous_response_id)).messages : []
    const store = req.store !== false
    if (usesMcp(req)) {
      const save = (response: Record<string, any>, messages: ChatMessage[]) =>
        c.executionCtx.waitUntil(saveResponse(c.env, auth.userId, { response, messages: [...history, ...inputMessages(req), ...messages] }))
      return responsesWithMcp(c, auth, req, history, store ? save : undefined)
    }
    const codec = responsesCodec({
      req,
      history,
      onComplete: store
        ? (response) => c.executionCtx.waitUntil(saveResponse(c.env, auth.userId, { response, messages: [...history, ...inputMessages(req), assistantTurn(response.output)] }))
        : undefined,
    })
    return relayRequest(c, 'chat', { inbound: codec })
  })
  .get('/responses/:id', async (c) => {
    const auth = await admit(c)
    return c.json((await loadResponse(c.env, auth.userId, c.req.param('id'))).response)
  })
  .delete('/responses/:id', async (c) => {
    const auth = await admit(c)
    await deleteResponse(c.env, auth.userId, c.req.param('id'))
    return c.json({ id: c.req.param('id'), object: 'response', deleted: true })
  })
