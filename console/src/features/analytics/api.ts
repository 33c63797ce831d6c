/** Admin analytics calls: GET /api/analytics/statistics (site totals) and /api/analytics/period (time series and tops for a range). */
import { keepPreviousData, queryOptions } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { rangeTimestamps, type DayRange } from '@/features/dashboard/range'

export interface SiteStatistics {
  user_count: number
  /** Sum of the users' balances. */
  total_quota: number
  total_used_quota: number
  invited_count: number
  channels: { enabled: number; disabled: number; auto_disabled: number; test_disabled: number }
  redemptions: { unused: number; disabled: number; used: number; used_quota: number }
}

export interface DailyUsage {
  date: string
  request_count: number
  quota: number
  prompt_tokens: number
  completion_tokens: number
  /** Total duration in ms. */
  request_time: number
}

export interface TopModel {
  model_name: string
  request_count: number
  quota: number
  tokens: number
}

export interface TopUser {
  user_id: number
  username: string | null
  request_count: number
  quota: number
}

export interface PeriodStatistics {
  daily: DailyUsage[]
  top_models: TopModel[]
  top_users: TopUser[]
  registrations: { date: string; direct: number; invited: number }[]
  redemptions: { date: string; count: number; quota: number }[]
}

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
