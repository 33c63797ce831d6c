/**
 * Filter controls of the channels list, all bound to URL params: type, status, group and tag
 * selects (with an "all" choice) and a debounced model-name box. The name search lives in the
 * shared toolbar.
 */
import { useEffect, useState } from 'react'
import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { Input } from '@/components/ui/input'
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select'
import { channelTagsQueryOptions, channelTypesQueryOptions, groupsQueryOptions } from '../api'
import { CHANNEL_STATUSES } from '../options'
import type { ChannelsSearch } from '../schema'

const ALL = '__all'

function FilterSelect({
  label,
  value,
  options,
  onChange,
  className,
}: {
  label: string
  value: string | undefined
  options: { value: string; label: string }[]
  onChange: (value: string | undefined) => void
  className?: string
}) {
  const { t } = useTranslation('channels')
  return (
    <Select value={value ?? ALL} onValueChange={(v) => onChange(v === ALL ? undefined : v)}>
      <SelectTrigger className={className ?? 'h-9 w-[calc(50%-0.25rem)] sm:w-40'} aria-label={label}>
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        <SelectItem value={ALL}>{t('filters.all', { label })}</SelectItem>
        {options.map((o) => (
          <SelectItem key={o.value} value={o.value}>
            {o.label}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  )
}

function ModelFilter({ value, onChange }: { value: string | undefined; onChange: (value: string | undefined) => void }) {
  const { t } = useTranslation('channels')
  const [text, setText] = useState(value ?? '')
  useEffect(() => setText(value ?? ''), [value])
  useEffect(() => {
    if (text === (value ?? '')) return
    const timer = setTimeout(() => onChange(text.trim() || undefined), 350)
    return () => clearTimeout(timer)
  }, [text, value, onChange])
  return <Input value={text} onChange={(e) => setText(e.target.value)} placeholder={t('filters.model')} aria-label={t('filters.model')} className="h-9 w-full sm:w-44" />
}

export function ChannelsFilters({ search, setSearch, showTag }: { search: ChannelsSearch; setSearch: (patch: Partial<ChannelsSearch>) => void; showTag: boolean }) {
  const { t } = useTranslation('channels')
  const types = useQuery(channelTypesQueryOptions).data ?? []
  const groups = useQuery(groupsQueryOptions).data ?? []
  const tags = useQuery({ ...channelTagsQueryOptions, enabled: showTag }).data ?? []
  return (
    <>
      <FilterSelect
        label={t('fields.type')}
        value={search.type !== undefined ? String(search.type) : undefined}
        options={types.map((ty) => ({ value: String(ty.id), label: ty.name }))}
        onChange={(v) => setSearch({ type: v === undefined ? undefined : Number(v), p: undefined })}
      />
      <FilterSelect
        label={t('fields.status')}
        value={search.status !== undefined ? String(search.status) : undefined}
        options={CHANNEL_STATUSES.map((s) => ({ value: String(s.value), label: t(s.label) }))}
        onChange={(v) => setSearch({ status: v === undefined ? undefined : Number(v), p: undefined })}
      />
      <FilterSelect label={t('fields.group')} value={search.group} options={groups.map((g) => ({ value: g, label: g }))} onChange={(v) => setSearch({ group: v, p: undefined })} />
      {showTag && (
        <FilterSelect label={t('fields.tag')} value={search.tag} options={tags.map((tag) => ({ value: tag, label: tag }))} onChange={(v) => setSearch({ tag: v, p: undefined })} />
      )}
      <ModelFilter value={search.model} onChange={(v) => setSearch({ model: v, p: undefined })} />
    </>
  )
}
