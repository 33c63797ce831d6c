/**
 * Stored Responses (`store` true, the default): the response object and the chat conversation it
 * ended (for previous_response_id), in KV under the owner's user id for 30 days. A response is
 * readable and deletable only by its owner's keys.
 */
import { cacheKeys } from '../../../cache/keys'
import { ApiError } from '../../../lib/errors'
import type { ChatMessage } from './request'

const TTL_SECONDS = 30 * 24 * 3600

export interface StoredResponse {
  response: Record<string, unknown>
  /** The whole conversation without instructions: history, this input and the assistant's turn. */
  messages: ChatMessage[]
}

export async function saveResponse(env: Env, userId: number, stored: StoredResponse): Promise<void> {
  await env.CACHE.put(cacheKeys.storedResponse(userId, String(stored.response.id)), JSON.stringify(stored), { expirationTtl: TTL_SECONDS })
}

export async function loadResponse(env: Env, userId: number, id: string): Promise<StoredResponse> {
  const stored = await env.CACHE.get<StoredResponse>(cacheKeys.storedResponse(userId, id), 'json')
  if (!stored) throw new ApiError(404, `Response with id '${id}' not found.`, { code: 'response_not_found', param: 'response_id' })
  return stored
}

export async function deleteResponse(env: Env, userId: number, id: string): Promise<void> {
  await loadResponse(env, userId, id)
  await env.CACHE.delete(cacheKeys.storedResponse(userId, id))
}
