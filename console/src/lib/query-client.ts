/**
 * The one QueryClient: failures of queries and mutations go to `handleError` (unless a call opts
 * out with `meta.silent`), client errors (4xx) are never retried, and React Query — not the
 * router — decides when data is stale.
 */
import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query'
import { isApiError } from './api-client'
import { handleError } from './handle-error'

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: { silent?: boolean }
    mutationMeta: { silent?: boolean }
  }
}

const isClientError = (err: unknown) => isApiError(err) && err.status >= 400 && err.status < 500

export function createQueryClient() {
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (err, query) => {
        if (!query.meta?.silent) handleError(err)
      },
    }),
    mutationCache: new MutationCache({
      onError: (err, _variables, _context, mutation) => {
        if (!mutation.meta?.silent) handleError(err)
      },
    }),
    defaultOptions: {
      queries: {
        retry: (failureCount, err) => !isClientError(err) && failureCount < 2,
        staleTime: 10_000,
      },
      mutations: { retry: false },
    },
  })
}
