/**
 * Anthropic Messages API on the relay: POST /v1/messages (through relay-request.ts with the
 * Anthropic codec, so any channel serves it and billing is the chat billing) and
 * POST /v1/messages/count_tokens (counted locally, not billed). Anthropic channels get the body
 * natively (codec.ts). Errors in Anthropic's envelope.
 * Auth: `x-api-key` or `Authorization: Bearer`; anthropic-version is accepted, and anthropic-beta
 * is forwarded for the betas billed at the standard price (premium-options.ts).
 */
import { Hono } from 'hono'
import type { HonoEnv } from '../../../env'
import { getSettings } from '../../../settings/store'
import { standardPriceBetas } from '../../premium-options'
import { relayRequest } from '../../relay-request'
import { assertModelAllowed } from '../../../access/token-auth'
import { admit } from '../../../access/admit'
import { countChatPrompt, countTokens } from '../../tokenizer'
import { inboundErrorHandler } from '../relay-hook'
import { readJsonBody } from '../../relay-input'
import { anthropicCodec } from './codec'
import { anthropicErrorResponse } from './response'
import { chatMessages, countTokensSchema, parseMessages } from './request'

export const anthropicApp = new Hono<HonoEnv>()
  .post('/messages', (c) => relayRequest(c, 'chat', { inbound: anthropicCodec({ beta: standardPriceBetas(c.req.header('anthropic-beta')) }) }))
  .post('/messages/count_tokens', async (c) => {
    const auth = await admit(c)
    const req = parseMessages(await readJsonBody(c), countTokensSchema)
    assertModelAllowed(auth, req.model)
    const approximate = (await getSettings(c.env, c.executionCtx)).bool('ApproximateTokenEnabled')
    let tokens = await countChatPrompt(c.env, req.model, chatMessages(req), approximate)
    if (req.tools?.length) tokens += await countTokens(c.env, req.model, JSON.stringify(req.tools), approximate)
    return c.json({ input_tokens: tokens })
  })

anthropicApp.onError(inboundErrorHandler({ errorResponse: anthropicErrorResponse }))
