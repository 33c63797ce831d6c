/** The actions menu of a channel row: edit, test, copy and delete (the name also opens the editor). */
import { Copy, MoreHorizontal, Pencil, Timer, Trash2 } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuSeparator, DropdownMenuTrigger } from '@/components/ui/dropdown-menu'
import { useCopyChannel } from '../api'
import { useChannelsDialog } from './channels-provider'
import type { Channel } from '@contract/channels'

export function ChannelsRowActions({ row }: { row: Channel }) {
  const { t } = useTranslation('channels')
  const { open } = useChannelsDialog()
  const copy = useCopyChannel()
  return (
    <div className="flex justify-end">
      <DropdownMenu modal={false}>
        <DropdownMenuTrigger asChild>
          <Button variant="ghost" size="icon" className="size-8" aria-label={t('actions.menu', { name: row.name })} data-testid={`channel-actions-${row.id}`}>
            <MoreHorizontal />
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end" className="w-44">
          <DropdownMenuItem onSelect={() => open({ kind: 'edit', row })}>
            <Pencil />
            {t('actions.edit')}
          </DropdownMenuItem>
          <DropdownMenuItem onSelect={() => open({ kind: 'test', row })}>
            <Timer />
            {t('actions.test')}
          </DropdownMenuItem>
          <DropdownMenuItem disabled={copy.isPending} onSelect={() => copy.mutate(row.id)}>
            <Copy />
            {t('actions.copy')}
          </DropdownMenuItem>
          <DropdownMenuSeparator />
          <DropdownMenuItem variant="destructive" onSelect={() => open({ kind: 'delete', row })}>
            <Trash2 />
            {t('actions.delete')}
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
    </div>
  )
}
