/**
 * Site settings calls (root only): every option from GET /api/option/ (secrets come back empty with
 * a `configured` flag) and saving a set of them with PUT /api/option/ {options}. A save updates the
 * cached options at once, then refreshes them and the site info (name, logo, footer, currency
 * display) so the whole console follows.
 */
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { api } from '@/lib/api-client'
import { notify } from '@/lib/notify'
import { siteInfoQueryOptions } from '@/features/site/api'
import type { OptionItem } from '@contract/settings'

/** The options by key. */
export type OptionMap = Record<string, OptionItem>

export const settingsKeys = {
  options: ['settings', 'options'] as const,
}

export const optionsQueryOptions = queryOptions({
  queryKey: settingsKeys.options,
  queryFn: async ({ signal }) => {
    const list = await api.get<OptionItem[]>('/api/option/', undefined, signal)
    return Object.fromEntries(list.map((o) => [o.key, o])) as OptionMap
  },
  // Groups edited elsewhere rewrite GroupRatio: always show what the server holds now.
  staleTime: 0,
})

/** Saves `{KEY: value}` (strings); a secret set to '' is cleared. */
export function useSaveOptions() {
  const queryClient = useQueryClient()
  const { t } = useTranslation('settings')
  return useMutation({
    mutationFn: (options: Record<string, string>) => api.put<null>('/api/option/', { options }),
    onSuccess: (_data, options) => {
      queryClient.setQueryData<OptionMap>(settingsKeys.options, (old) => {
        if (!old) return old
        const next = { ...old }
        for (const [key, value] of Object.entries(options)) {
          const item = old[key]
          if (!item) continue
          next[key] = item.secret ? { ...item, configured: value !== '' } : { ...item, value }
        }
        return next
      })
      notify.success(t('saved'))
      void queryClient.invalidateQueries({ queryKey: settingsKeys.options })
      void queryClient.invalidateQueries({ queryKey: siteInfoQueryOptions.queryKey })
    },
  })
}
