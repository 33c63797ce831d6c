/**
 * Two-factor sign-in of the own account (new-api's paths): status (GET /api/user/2fa/status),
 * setup (secret, otpauth URI and backup codes, shown once), enable / disable with a code, and new
 * backup codes. Each change reloads the status.
 */
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'

export interface TwoFactorStatus {
  enabled: boolean
  pending: boolean
  backup_codes_remaining: number
}

export interface TwoFactorSetup {
  secret: string
  /** The `otpauth://` URI drawn as the QR code. */
  qr_code_data: string
  backup_codes: string[]
}

export const twoFactorStatusQueryOptions = queryOptions({
  queryKey: ['profile', '2fa'] as const,
  queryFn: ({ signal }) => api.get<TwoFactorStatus>('/api/user/2fa/status', undefined, signal),
})

function useTwoFactorMutation<TBody, TData>(path: string, body: (input: TBody) => unknown) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: TBody) => api.post<TData>(path, body(input)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: twoFactorStatusQueryOptions.queryKey }),
  })
}

export const useTwoFactorSetup = () => useTwoFactorMutation<void, TwoFactorSetup>('/api/user/2fa/setup', () => undefined)
export const useTwoFactorEnable = () => useTwoFactorMutation<string, TwoFactorStatus>('/api/user/2fa/enable', (code) => ({ code }))
export const useTwoFactorDisable = () => useTwoFactorMutation<string, TwoFactorStatus>('/api/user/2fa/disable', (code) => ({ code }))
export const useNewBackupCodes = () => useTwoFactorMutation<string, { backup_codes: string[] }>('/api/user/2fa/backup_codes', (code) => ({ code }))
