/** `/panel/mcp` (admin): the MCP tool servers behind /mcp. */
import { createFileRoute, redirect } from '@tanstack/react-router'
import { loadNamespaces } from '@/i18n'
import { authStore, isAdmin } from '@/stores/auth-store'
import { Mcp } from '@/features/mcp'

export const Route = createFileRoute('/panel/mcp')({
  beforeLoad: () => {
    if (!isAdmin(authStore.getUser())) throw redirect({ to: '/panel' })
  },
  loader: () => loadNamespaces('mcp'),
  component: Mcp,
})
