/**
 * Gemini native API on the gateway (mounted at /v1beta): POST models/{model}:generateContent,
 * :streamGenerateContent?alt=sse, :embedContent, :batchEmbedContents (through relay-request.ts
 * with the Gemini codecs, so any channel serves them with the usual billing), :countTokens
 * (counted locally, not billed), and GET models / models/{model} for the key's models. Errors in
 * Google's envelope; the key comes from x-goog-api-key, ?key= or Authorization.
 */
import { Hono, type Context } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import type { HonoEnv } from '../../../env'
import { ApiError } from '../../../lib/errors'
import { getSettings } from '../../../settings/store'
import { relayRequest } from '../../relay-request'
import { getRoutingTable, modelsOfGroup } from '../../../channels/routing-table'
import { assertModelAllowed, type RelayAuth } from '../../../access/token-auth'
import { admit } from '../../../access/admit'
import { countChatPrompt, countTokens } from '../../tokenizer'
import { inboundErrorHandler } from '../relay-hook'
import { readJsonBody } from '../../relay-input'
import { geminiEmbedCodec, geminiGenerateCodec } from './codec'
import { chatMessages, parseGenerate } from './request'
import { googleErrorResponse } from './response'

const METHODS = ['generateContent', 'streamGenerateContent', 'countTokens', 'embedContent', 'batchEmbedContents']

const modelView = (id: string) => ({ name: `models/${id}`, version: '001', displayName: id, description: '', supportedGenerationMethods: METHODS })

async function modelsOf(c: Context<HonoEnv>, auth: RelayAuth) {
  const table = await getRoutingTable(c.env, c.executionCtx)
  return modelsOfGroup(table, auth.group).filter((id) => !auth.models || auth.models.includes(id))
}

async function countGemini(c: Context<HonoEnv>, model: string) {
  const auth = await admit(c)
  assertModelAllowed(auth, model)
  const body = (await readJsonBody(c)) as Record<string, unknown> | null
  // countTokens takes {contents} or the whole {generateContentRequest}.
  const req = parseGenerate((body?.generateContentRequest as unknown) ?? body)
  const approximate = (await getSettings(c.env, c.executionCtx)).bool('ApproximateTokenEnabled')
  let total = await countChatPrompt(c.env, model, chatMessages(req), approximate)
  if (req.tools?.length) total += await countTokens(c.env, model, JSON.stringify(req.tools), approximate)
  return c.json({ totalTokens: total })
}

export const geminiApp = new Hono<HonoEnv>()
  .use(
    bodyLimit({
      maxSize: 32 * 1024 * 1024,
      onError: () => {
        throw new ApiError(413, 'Request body too large (limit 32 MB)')
      },
    })
  )
  .get('/models', async (c) => {
    const auth = await admit(c)
    return c.json({ models: (await modelsOf(c, auth)).map(modelView) })
  })
  .get('/models/:model', async (c) => {
    const auth = await admit(c)
    const id = c.req.param('model')
    if (!(await modelsOf(c, auth)).includes(id)) throw new ApiError(404, `models/${id} is not found or not available to this key.`)
    return c.json(modelView(id))
  })
  .post('/models/:target{.+}', async (c) => {
    const target = c.req.param('target')
    const at = target.lastIndexOf(':')
    const model = at > 0 ? target.slice(0, at) : ''
    const action = target.slice(at + 1)
    if (!model || model.length > 200) throw new ApiError(404, `Unknown model path: ${target}`)
    switch (action) {
      case 'generateContent':
        return relayRequest(c, 'chat', { inbound: geminiGenerateCodec(model, false) })
      case 'streamGenerateContent':
        if (c.req.query('alt') !== 'sse') throw new ApiError(400, 'streamGenerateContent is served as server-sent events only: add ?alt=sse.')
        return relayRequest(c, 'chat', { inbound: geminiGenerateCodec(model, true) })
      case 'embedContent':
        return relayRequest(c, 'embeddings', { inbound: geminiEmbedCodec(model, false) })
      case 'batchEmbedContents':
        return relayRequest(c, 'embeddings', { inbound: geminiEmbedCodec(model, true) })
      case 'countTokens':
        return countGemini(c, model)
      default:
        throw new ApiError(404, `Unknown method: ${action}`)
    }
  })

geminiApp.onError(inboundErrorHandler({ errorResponse: googleErrorResponse }))
