/** The "…" menu of a bot menu row: edit, delete (confirmed). */
import { Pencil, Trash2 } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { RowAction, RowActionsMenu } from '@/components/row-actions-menu'
import { DropdownMenuSeparator } from '@/components/ui/dropdown-menu'
import type { TelegramMenu } from '../api'
import { useTelegramDialog } from './telegram-provider'

export function TelegramRowActions({ row }: { row: TelegramMenu }) {
  const { t } = useTranslation('telegram')
  const { open } = useTelegramDialog()
  return (
    <RowActionsMenu label={t('actions.menu', { command: row.command })} testId={`telegram-actions-${row.id}`} className="w-36">
      <RowAction icon={Pencil} label={t('actions.edit')} onSelect={() => open({ kind: 'edit', row })} />
      <DropdownMenuSeparator />
      <RowAction icon={Trash2} label={t('actions.delete')} destructive onSelect={() => open({ kind: 'delete', row })} />
    </RowActionsMenu>
  )
}
