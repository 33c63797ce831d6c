/**
 * "New version available": polls /api/status (every 5 minutes and when the window regains focus)
 * and, once the server serves another console build than this one, shows a lasting toast with a
 * refresh action. Renders nothing itself.
 */
import { useEffect } from 'react'
import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { toast } from 'sonner'
import { api } from '@/lib/api-client'
import { CONSOLE_BUILD } from '@/lib/deploy-guard'

export const isNewBuild = (served: string | undefined) => Boolean(CONSOLE_BUILD && served && served !== CONSOLE_BUILD)

export function NewVersionNotice() {
  const { t } = useTranslation()
  const { data } = useQuery({
    queryKey: ['site', 'deployed-build'],
    queryFn: ({ signal }) => api.get<{ console_build?: string; version: string }>('/api/status', undefined, signal),
    refetchInterval: 5 * 60_000,
    refetchOnWindowFocus: true,
    retry: false,
  })
  useEffect(() => {
    if (!data || !isNewBuild(data.console_build)) return
    toast.info(t('errors.newVersion', { version: data.version || data.console_build }), {
      id: 'new-version',
      duration: Number.POSITIVE_INFINITY,
      action: { label: t('actions.refresh'), onClick: () => window.location.reload() },
    })
  }, [data, t])
  return null
}
