/** The dashboard's one call: GET /api/user/dashboard for a date range (balance, today, per-day × model rows, models). */
import { keepPreviousData, queryOptions } from '@tanstack/react-query'
import type { DashboardData, UsageRow } from '@contract/dashboard'
import { api } from '@/lib/api-client'
import { rangeTimestamps, type DayRange } from './range'

export type { UsageRow }

export const dashboardKeys = {
  all: ['dashboard'] as const,
  range: (range: DayRange) => [...dashboardKeys.all, range.from, range.to] as const,
}

export const dashboardQueryOptions = (range: DayRange) =>
  queryOptions({
    queryKey: dashboardKeys.range(range),
    queryFn: ({ signal }) => api.get<DashboardData>('/api/user/dashboard', rangeTimestamps(range), signal),
    placeholderData: keepPreviousData,
  })
