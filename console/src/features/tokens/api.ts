/**
 * API key calls: the signed-in user's own keys (GET/POST/PUT/DELETE /api/token/, PUT
 * /api/token/status), the admin search across users (GET /api/token/admin/search, PUT and DELETE
 * under /api/token/admin), and the form's option lists (the user's and public groups from
 * GET /api/user_group_map, the available models from GET /api/available_model, MCP tool names from
 * GET /api/mcp/tools). Every write
 * refreshes the token lists. The all-users search shows masked keys; the full key comes from an
 * explicit, logged reveal (POST /api/token/:id/key for the owner, /api/token/admin/:id/key for root).
 */
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { api } from '@/lib/api-client'
import { notify } from '@/lib/notify'
import type { GroupInfo } from '@contract/groups'
import type { McpGroupTool } from '@contract/mcp'
import type { ListSearch, Page } from '@contract/paging'
import type { Token, TokenBody } from '@contract/tokens'
import { TOKEN_STATUS, type TokenStatus } from '@contract/enums'

export type { Token }

export interface AdminTokenSearch {
  p?: number
  page_size?: number
  keyword?: string
  user_id?: number
  token_id?: number
}

export const tokenKeys = {
  all: ['tokens'] as const,
  list: (search: ListSearch) => ['tokens', 'list', search] as const,
  adminList: (search: AdminTokenSearch) => ['tokens', 'admin', search] as const,
  groups: ['tokens', 'groups'] as const,
  models: ['tokens', 'models'] as const,
  mcpTools: (group: string) => ['tokens', 'mcp-tools', group] as const,
}

export const tokensQueryOptions = (search: ListSearch) =>
  queryOptions({
    queryKey: tokenKeys.list(search),
    queryFn: ({ signal }) => api.get<Page<Token>>('/api/token/', { ...search }, signal),
    placeholderData: keepPreviousData,
  })

export const adminTokensQueryOptions = (search: AdminTokenSearch) =>
  queryOptions({
    queryKey: tokenKeys.adminList(search),
    queryFn: ({ signal }) => api.get<Page<Token>>('/api/token/admin/search', { ...search }, signal),
    placeholderData: keepPreviousData,
  })

export const userGroupsQueryOptions = queryOptions({
  queryKey: tokenKeys.groups,
  queryFn: ({ signal }) => api.get<Record<string, GroupInfo>>('/api/user_group_map', undefined, signal),
  staleTime: 60_000,
})

export const availableModelsQueryOptions = queryOptions({
  queryKey: tokenKeys.models,
  queryFn: ({ signal }) => api.get<{ models: { model: string }[] }>('/api/available_model', undefined, signal).then((d) => [...new Set(d.models.map((m) => m.model))].sort()),
  staleTime: 60_000,
})

/** Gateway names of the MCP tools a key of `group` ('' = the caller's own) could call: suggestions for its allowlist. */
export const mcpToolsQueryOptions = (group: string) =>
  queryOptions({
    queryKey: tokenKeys.mcpTools(group),
    queryFn: ({ signal }) => api.get<McpGroupTool[]>('/api/mcp/tools', { group }, signal).then((tools) => tools.map((t) => t.name)),
    staleTime: 60_000,
  })

/** The full `sk-…` key of a token (owner, or root with `asRoot`); the server logs every reveal. */
export const revealTokenKey = (id: number, asRoot: boolean) =>
  api.post<{ id: number; key: string }>(asRoot ? `/api/token/admin/${id}/key` : `/api/token/${id}/key`).then((d) => d.key)

function useInvalidateTokens() {
  const queryClient = useQueryClient()
  return () => queryClient.invalidateQueries({ predicate: (q) => q.queryKey[0] === 'tokens' && (q.queryKey[1] === 'list' || q.queryKey[1] === 'admin') })
}

export function useCreateToken() {
  const invalidate = useInvalidateTokens()
  const { t } = useTranslation('tokens')
  return useMutation({
    mutationFn: (body: TokenBody) => api.post<Token>('/api/token/', body),
    onSuccess: async () => {
      notify.success(t('toast.created'))
      await invalidate()
    },
  })
}

/** Admins editing another user's key go through /api/token/admin. */
export function useUpdateToken(asAdmin: boolean) {
  const invalidate = useInvalidateTokens()
  const { t } = useTranslation('tokens')
  return useMutation({
    mutationFn: (body: TokenBody & { id: number }) => api.put<Token>(asAdmin ? '/api/token/admin' : '/api/token/', body),
    onSuccess: async () => {
      notify.success(t('toast.updated'))
      await invalidate()
    },
  })
}

export function useSetTokenStatus() {
  const invalidate = useInvalidateTokens()
  const { t } = useTranslation('tokens')
  return useMutation({
    mutationFn: (body: { id: number; status: TokenStatus }) => api.put<Token>('/api/token/status', body),
    onSuccess: async (_row, body) => {
      notify.success(body.status === TOKEN_STATUS.ENABLED ? t('toast.enabled') : t('toast.disabled'))
      await invalidate()
    },
  })
}

export function useDeleteToken(asAdmin: boolean) {
  const invalidate = useInvalidateTokens()
  const { t } = useTranslation('tokens')
  return useMutation({
    mutationFn: (id: number) => api.delete<null>(asAdmin ? `/api/token/admin/${id}` : `/api/token/${id}`),
    onSuccess: async () => {
      notify.success(t('toast.deleted'))
      await invalidate()
    },
  })
}
