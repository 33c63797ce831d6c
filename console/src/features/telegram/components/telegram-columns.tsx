/** Columns of the bot menu table: id, command, description, message type, reply preview, actions. */
import { useMemo } from 'react'
import type { Column, ColumnDef } from '@tanstack/react-table'
import { useTranslation } from 'react-i18next'
import { Badge } from '@/components/ui/badge'
import { DataTableColumnHeader } from '@/components/data-table'
import type { TelegramMenu } from '../api'
import { TelegramRowActions } from './telegram-row-actions'

export function useTelegramColumns(): ColumnDef<TelegramMenu>[] {
  const { t } = useTranslation('telegram')
  return useMemo<ColumnDef<TelegramMenu>[]>(() => {
    const header =
      (title: string) =>
      ({ column }: { column: Column<TelegramMenu, unknown> }) => <DataTableColumnHeader column={column} title={title} />
    return [
      { id: 'id', accessorKey: 'id', header: header(t('columns.id')), meta: { title: t('columns.id'), className: 'w-16' } },
      {
        id: 'command',
        accessorKey: 'command',
        header: header(t('columns.command')),
        enableHiding: false,
        meta: { title: t('columns.command') },
        cell: ({ row }) => <code className="font-mono text-sm font-medium">/{row.original.command}</code>,
      },
      {
        id: 'description',
        accessorKey: 'description',
        enableSorting: false,
        header: t('columns.description'),
        meta: { title: t('columns.description') },
        cell: ({ row }) => <span className="line-clamp-2 max-w-56">{row.original.description}</span>,
      },
      {
        id: 'parse_mode',
        accessorKey: 'parse_mode',
        enableSorting: false,
        header: t('columns.parseMode'),
        meta: { title: t('columns.parseMode') },
        cell: ({ row }) => <Badge variant="secondary">{t(`parseModes.${row.original.parse_mode}`, { defaultValue: row.original.parse_mode })}</Badge>,
      },
      {
        id: 'reply_message',
        accessorKey: 'reply_message',
        enableSorting: false,
        header: t('columns.reply'),
        meta: { title: t('columns.reply') },
        cell: ({ row }) => <span className="line-clamp-2 max-w-80 font-mono text-xs break-all text-muted-foreground">{row.original.reply_message}</span>,
      },
      {
        id: 'actions',
        header: () => <span className="sr-only">{t('columns.actions')}</span>,
        enableSorting: false,
        enableHiding: false,
        meta: { className: 'w-10 text-right' },
        cell: ({ row }) => <TelegramRowActions row={row.original} />,
      },
    ]
  }, [t])
}
