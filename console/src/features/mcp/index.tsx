/**
 * /panel/mcp (admin): the MCP tool servers behind the gateway's /mcp endpoint — list, create/edit
 * (write-only auth headers), delete, and Test, which connects, lists the tools and refreshes their
 * cached list.
 */
import { Plus } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { PageHeader } from '@/components/page-header'
import { Button } from '@/components/ui/button'
import { McpDialogs } from './components/mcp-dialogs'
import { McpProvider, useMcpDialog } from './components/mcp-provider'
import { McpServersTable } from './components/mcp-servers-table'

function AddButton() {
  const { t } = useTranslation('mcp')
  const { open } = useMcpDialog()
  return (
    <Button onClick={() => open({ kind: 'create' })} data-testid="mcp-create">
      <Plus />
      {t('actions.add')}
    </Button>
  )
}

export function Mcp() {
  const { t } = useTranslation('mcp')
  return (
    <McpProvider>
      <PageHeader title={t('title')} description={t('description')} actions={<AddButton />} />
      <McpServersTable />
      <McpDialogs />
    </McpProvider>
  )
}
