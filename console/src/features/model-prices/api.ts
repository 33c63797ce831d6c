/**
 * GET /api/available_model: the models the caller's group can call, with prices that already
 * include the group ratio (input/output multipliers; null when the model has no price).
 */
import { queryOptions } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import type { PriceType } from '@/features/pricing/units'

export interface AvailableModel {
  model: string
  owned_by: string
  groups: string[]
  priced: boolean
  type: PriceType | null
  input: number | null
  output: number | null
}

export interface AvailableModels {
  group: string | null
  group_ratio: number
  models: AvailableModel[]
}

export const availableModelsQueryOptions = queryOptions({
  queryKey: ['model-prices', 'available'],
  queryFn: () => api.get<AvailableModels>('/api/available_model'),
})
