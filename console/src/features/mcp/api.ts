/**
 * MCP tool servers (admin): the list (GET /api/mcp/server/), create (POST), edit (PUT /:id), delete
 * (DELETE /:id) and test (POST /:id/test: connect, list the tools, refresh the cached list).
 */
import { queryOptions, useMutation } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { api } from '@/lib/api-client'
import { useInvalidate } from '@/lib/list-query'
import { notify } from '@/lib/notify'
import type { McpServerBody, McpServerView, McpToolList } from '@contract/mcp'

export type { McpServerView, McpToolList } from '@contract/mcp'

export const mcpKeys = { all: ['mcp'] as const, servers: ['mcp', 'servers'] as const }

export const mcpServersQueryOptions = queryOptions({
  queryKey: mcpKeys.servers,
  queryFn: ({ signal }) => api.get<McpServerView[]>('/api/mcp/server/', undefined, signal),
})

export function useSaveServer() {
  const { t } = useTranslation('mcp')
  const refresh = useInvalidate(mcpKeys.all)
  return useMutation({
    mutationFn: ({ id, ...body }: McpServerBody & { id?: number }) =>
      id ? api.put<McpServerView>(`/api/mcp/server/${id}`, body) : api.post<McpServerView>('/api/mcp/server/', body),
    onSuccess: (_, vars) => {
      refresh()
      notify.success(vars.id ? t('toast.updated') : t('toast.created'))
    },
  })
}

export function useDeleteServer() {
  const { t } = useTranslation('mcp')
  const refresh = useInvalidate(mcpKeys.all)
  return useMutation({
    mutationFn: (id: number) => api.delete<null>(`/api/mcp/server/${id}`),
    onSuccess: () => {
      refresh()
      notify.success(t('toast.deleted'))
    },
  })
}

export function useTestServer() {
  return useMutation({ mutationFn: (id: number) => api.post<McpToolList>(`/api/mcp/server/${id}/test`) })
}
