/**
 * The by-tag view's tag chooser: every tag (GET /api/channel/tags) as a toggle; choosing one
 * filters the list to that tag's channels (channels created from several keys share a tag).
 */
import { useQuery } from '@tanstack/react-query'
import { Tag } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { Skeleton } from '@/components/ui/skeleton'
import { channelTagsQueryOptions } from '../api'

export function ChannelsTagPicker({ value, onChange }: { value: string | undefined; onChange: (tag: string | undefined) => void }) {
  const { t } = useTranslation('channels')
  const tags = useQuery(channelTagsQueryOptions)
  if (tags.isPending) {
    return (
      <div className="flex flex-wrap gap-2 py-3">
        {Array.from({ length: 4 }, (_, i) => (
          <Skeleton key={i} className="h-8 w-24" />
        ))}
      </div>
    )
  }
  const list = tags.data ?? []
  if (list.length === 0) return <p className="rounded-lg border border-dashed p-6 text-center text-sm text-muted-foreground">{t('tags.none')}</p>
  return (
    <div className="flex flex-wrap gap-2 py-3" role="group" aria-label={t('tags.choose')} data-testid="channel-tags">
      {list.map((tag) => (
        <Button key={tag} size="sm" variant={tag === value ? 'default' : 'outline'} aria-pressed={tag === value} onClick={() => onChange(tag === value ? undefined : tag)}>
          <Tag />
          {tag}
        </Button>
      ))}
    </div>
  )
}
