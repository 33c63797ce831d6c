/**
 * System page calls (root only): the report (GET /api/system/) and the OTLP "send test"
 * (POST /api/system/otlp-test). The shapes are in shared/contract/system.ts.
 */
import { queryOptions, useMutation } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import type { OtlpTestResult, Part, SystemReport } from '@contract/system'

export const failed = <T extends object>(p: Part<T>): p is { error: string } => 'error' in p && typeof (p as { error: unknown }).error === 'string' && Object.keys(p).length === 1

export const systemQueryOptions = () =>
  queryOptions({
    queryKey: ['system'] as const,
    queryFn: ({ signal }) => api.get<SystemReport>('/api/system/', undefined, signal),
  })

export const useOtlpTest = () => useMutation({ mutationFn: () => api.post<OtlpTestResult>('/api/system/otlp-test', {}) })
