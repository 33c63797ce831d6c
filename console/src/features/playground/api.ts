/**
 * Data of the playground: the user's own API keys (GET /api/token/?page_size=100), the hidden
 * playground key (GET /api/token/playground, created on first use) and the models a key may use
 * (GET /v1/models with that key).
 */
import { queryOptions } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { listModels } from './relay'
import type { Page } from '@contract/paging'
import type { Token } from '@contract/tokens'

/** Token status 1 = enabled; disabled, expired and exhausted keys cannot call the relay. */
export const TOKEN_ENABLED = 1

export const playgroundKeys = {
  all: ['playground'] as const,
  tokens: () => [...playgroundKeys.all, 'tokens'] as const,
  playgroundToken: () => [...playgroundKeys.all, 'playground-token'] as const,
  models: (key: string) => [...playgroundKeys.all, 'models', key] as const,
}

export const tokensQueryOptions = queryOptions({
  queryKey: playgroundKeys.tokens(),
  queryFn: ({ signal }) => api.get<Page<Token>>('/api/token/', { p: 1, page_size: 100 }, signal),
  select: (page) => page.data.filter((t) => t.status === TOKEN_ENABLED),
})

export const playgroundTokenQueryOptions = queryOptions({
  queryKey: playgroundKeys.playgroundToken(),
  queryFn: ({ signal }) => api.get<Token>('/api/token/playground', undefined, signal),
  staleTime: Infinity,
})

export const modelsQueryOptions = (key: string) =>
  queryOptions({
    queryKey: playgroundKeys.models(key),
    queryFn: ({ signal }) => listModels(key, signal),
    staleTime: 60_000,
    retry: false,
  })

/** 'sk-abcd…wxyz': enough to tell keys apart without showing them. */
export const maskKey = (key: string) => (key.length > 12 ? `${key.slice(0, 6)}…${key.slice(-4)}` : key)
