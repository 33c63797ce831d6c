/** Mounts every dialog of the MCP page: create/edit a server, its tools, and the delete confirmation. */
import { useTranslation } from 'react-i18next'
import { ConfirmDialog } from '@/components/confirm-dialog'
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { useDeleteServer } from '../api'
import { McpServerDialog } from './mcp-server-dialog'
import { useMcpDialog } from './mcp-provider'

export function McpDialogs() {
  const { t } = useTranslation('mcp')
  const { dialog, isOpen, seq, close } = useMcpDialog()
  const remove = useDeleteServer()
  const onOpenChange = (o: boolean) => !o && close()
  if (!dialog) return null

  switch (dialog.kind) {
    case 'create':
      return <McpServerDialog key={seq} open={isOpen} onOpenChange={onOpenChange} />
    case 'edit':
      return <McpServerDialog key={seq} open={isOpen} onOpenChange={onOpenChange} row={dialog.row} />
    case 'tools':
      return (
        <Dialog open={isOpen} onOpenChange={onOpenChange}>
          <DialogContent data-testid="mcp-tools-dialog" className="sm:max-w-xl">
            <DialogHeader>
              <DialogTitle>{t('tools.title', { name: dialog.row.name })}</DialogTitle>
              <DialogDescription>{t('tools.description', { count: dialog.list.tools.length })}</DialogDescription>
            </DialogHeader>
            <ul className="grid max-h-96 gap-2 overflow-y-auto">
              {dialog.list.tools.map((tool) => (
                <li key={tool.name} className="rounded-md border p-3">
                  <code className="font-mono text-sm font-medium break-all">{tool.gateway_name}</code>
                  {tool.description && <p className="mt-1 text-sm text-muted-foreground">{tool.description}</p>}
                </li>
              ))}
            </ul>
          </DialogContent>
        </Dialog>
      )
    case 'delete': {
      const { row } = dialog
      return (
        <ConfirmDialog
          open={isOpen}
          onOpenChange={(o) => !remove.isPending && onOpenChange(o)}
          title={t('confirm.deleteTitle')}
          description={t('confirm.deleteDescription', { name: row.name })}
          confirmText={t('actions.delete')}
          destructive
          pending={remove.isPending}
          onConfirm={() => remove.mutate(row.id, { onSuccess: close })}
        />
      )
    }
  }
}
