/** The tool servers: name, URL, header names (values are write-only) and an OAuth grant's client id, groups, state, and per row test, edit and delete. */
import { useQuery } from '@tanstack/react-query'
import { Loader2, Pencil, PlugZap, Trash2 } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table'
import { type McpServerView, mcpServersQueryOptions, useTestServer } from '../api'
import { useMcpDialog } from './mcp-provider'

function TestButton({ row }: { row: McpServerView }) {
  const { t } = useTranslation('mcp')
  const { open } = useMcpDialog()
  const test = useTestServer()
  return (
    <Button
      variant="outline"
      size="sm"
      disabled={test.isPending}
      onClick={() => test.mutate(row.id, { onSuccess: (list) => open({ kind: 'tools', row, list }) })}
      data-testid={`mcp-test-${row.name}`}
    >
      {test.isPending ? <Loader2 className="animate-spin" /> : <PlugZap />}
      {t('actions.test')}
    </Button>
  )
}

export function McpServersTable() {
  const { t } = useTranslation('mcp')
  const { open } = useMcpDialog()
  const { data, isLoading } = useQuery(mcpServersQueryOptions)
  if (isLoading) return <Loader2 className="mx-auto my-8 animate-spin text-muted-foreground" />
  if (!data?.length) return <p className="rounded-md border p-8 text-center text-muted-foreground">{t('empty')}</p>
  return (
    <div className="overflow-x-auto rounded-md border">
      <Table data-testid="mcp-servers">
        <TableHeader>
          <TableRow>
            <TableHead>{t('fields.name')}</TableHead>
            <TableHead>{t('fields.url')}</TableHead>
            <TableHead>{t('fields.headers')}</TableHead>
            <TableHead>{t('fields.groups')}</TableHead>
            <TableHead>{t('columns.state')}</TableHead>
            <TableHead className="text-right">
              <span className="sr-only">{t('columns.actions')}</span>
            </TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {data.map((row) => (
            <TableRow key={row.id}>
              <TableCell>
                <code className="font-mono text-sm font-medium">{row.name}</code>
              </TableCell>
              <TableCell className="max-w-64 truncate font-mono text-xs" title={row.url}>
                {row.url}
              </TableCell>
              <TableCell className="text-xs">
                {[...row.header_names.map((h) => `${h}: ${t('headerSet')}`), ...(row.oauth ? [t('oauthSet', { client: row.oauth.client_id })] : [])].join(', ') || t('headerUnset')}
              </TableCell>
              <TableCell className="text-xs">{row.groups.length ? row.groups.join(', ') : t('allGroups')}</TableCell>
              <TableCell>
                <div className="flex flex-wrap gap-1">
                  <Badge variant={row.enabled ? 'default' : 'secondary'}>{row.enabled ? t('state.enabled') : t('state.disabled')}</Badge>
                  {row.free && <Badge variant="outline">{t('state.free')}</Badge>}
                </div>
              </TableCell>
              <TableCell>
                <div className="flex justify-end gap-1">
                  <TestButton row={row} />
                  <Button variant="ghost" size="icon" aria-label={t('actions.edit')} onClick={() => open({ kind: 'edit', row })} data-testid={`mcp-edit-${row.name}`}>
                    <Pencil />
                  </Button>
                  <Button variant="ghost" size="icon" aria-label={t('actions.delete')} onClick={() => open({ kind: 'delete', row })}>
                    <Trash2 />
                  </Button>
                </div>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  )
}
