/**
 * Bar shown while channels are selected: delete them, remove one model from them, or set their
 * Azure API version (each through a dialog), or clear the selection.
 */
import { Cloud, ListX, Trash2, X } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { useChannelsDialog } from './channels-provider'

export function ChannelsBulkActions({ ids, onClear }: { ids: number[]; onClear: () => void }) {
  const { t } = useTranslation('channels')
  const { open } = useChannelsDialog()
  if (ids.length === 0) return null
  return (
    <div className="mb-3 flex flex-wrap items-center gap-2 rounded-md border border-primary/30 bg-primary/5 px-3 py-2" data-testid="channel-bulk-actions">
      <span className="mr-auto text-sm font-medium">{t('bulk.selected', { count: ids.length })}</span>
      <Button variant="outline" size="sm" onClick={() => open({ kind: 'delModel', ids })}>
        <ListX />
        {t('bulk.delModel')}
      </Button>
      <Button variant="outline" size="sm" onClick={() => open({ kind: 'azure', ids })}>
        <Cloud />
        {t('bulk.azure')}
      </Button>
      <Button variant="destructive" size="sm" onClick={() => open({ kind: 'batchDelete', ids })}>
        <Trash2 />
        {t('bulk.delete')}
      </Button>
      <Button variant="ghost" size="icon" className="size-8" aria-label={t('bulk.clear')} onClick={onClear}>
        <X />
      </Button>
    </div>
  )
}
