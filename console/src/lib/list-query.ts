/**
 * The query pieces every keyword-searchable management list shares: the paged GET with the URL's
 * page, size, order and keyword, and the hook that refreshes a feature's queries after a mutation.
 */
import { keepPreviousData, queryOptions, useQueryClient, type QueryKey } from '@tanstack/react-query'
import type { ListSearch, Page } from '@contract/paging'
import { api } from './api-client'

/** GET `path` with the list search; the previous page stays on screen while the next one loads. */
export const pagedListQuery = <T>(queryKey: QueryKey, path: string, search: ListSearch) =>
  queryOptions({
    queryKey,
    queryFn: ({ signal }) => api.get<Page<T>>(path, { p: search.p, page_size: search.page_size, order: search.order, keyword: search.keyword }, signal),
    placeholderData: keepPreviousData,
  })

/** A callback that invalidates every query under `queryKey` (a feature's root key). */
export function useInvalidate(queryKey: QueryKey) {
  const queryClient = useQueryClient()
  return () => void queryClient.invalidateQueries({ queryKey })
}
