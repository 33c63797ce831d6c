/** The "…" menu of a bot menu row: edit, delete (confirmed). */
import { MoreHorizontal, Pencil, Trash2 } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuSeparator, DropdownMenuTrigger } from '@/components/ui/dropdown-menu'
import type { TelegramMenu } from '../api'
import { useTelegramDialog } from './telegram-provider'

export function TelegramRowActions({ row }: { row: TelegramMenu }) {
  const { t } = useTranslation('telegram')
  const { open } = useTelegramDialog()
  return (
    <DropdownMenu modal={false}>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="icon" className="size-8" aria-label={t('actions.menu', { command: row.command })} data-testid={`telegram-actions-${row.id}`}>
          <MoreHorizontal />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-36">
        <DropdownMenuItem onSelect={() => open({ kind: 'edit', row })}>
          <Pencil />
          {t('actions.edit')}
        </DropdownMenuItem>
        <DropdownMenuSeparator />
        <DropdownMenuItem variant="destructive" onSelect={() => open({ kind: 'delete', row })}>
          <Trash2 />
          {t('actions.delete')}
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  )
}
