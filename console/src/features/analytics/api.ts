/** Admin analytics calls: GET /api/analytics/statistics (site totals) and /api/analytics/period (time series and tops for a range). */
import { keepPreviousData, queryOptions } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { rangeTimestamps, type DayRange } from '@/features/dashboard/range'
import type { PeriodStatistics, SiteStatistics } from '@contract/analytics'

export const analyticsKeys = {
  all: ['analytics'] as const,
  statistics: () => [...analyticsKeys.all, 'statistics'] as const,
  period: (range: DayRange) => [...analyticsKeys.all, 'period', range.from, range.to] as const,
}

export const statisticsQueryOptions = queryOptions({
  queryKey: analyticsKeys.statistics(),
  queryFn: ({ signal }) => api.get<SiteStatistics>('/api/analytics/statistics', undefined, signal),
})

export const periodQueryOptions = (range: DayRange) =>
  queryOptions({
    queryKey: analyticsKeys.period(range),
    queryFn: ({ signal }) => api.get<PeriodStatistics>('/api/analytics/period', rangeTimestamps(range), signal),
    placeholderData: keepPreviousData,
  })
