/** The dashboard's one call: GET /api/user/dashboard for a date range (balance, today, per-day × model rows, models). */
import { keepPreviousData, queryOptions } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { rangeTimestamps, type DayRange } from './range'

/** One rollup row: a UTC day × model of the signed-in user. `request_time` is the total in ms. */
export interface UsageRow {
  date: string
  model_name: string
  request_count: number
  quota: number
  prompt_tokens: number
  completion_tokens: number
  request_time: number
  /** Prompt tokens served from the supplier's prompt cache (filled by the rollup). */
  cached_tokens?: number
}

export interface DashboardData {
  balance: { quota: number; used_quota: number; request_count: number }
  today: { request_count: number; quota: number; tokens: number }
  rows: UsageRow[]
  /** Models the user's group can call. */
  models: string[]
}

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
