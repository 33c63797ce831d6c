/**
 * GET /api/available_model: the models the caller's group can call, with prices that already
 * include the group ratio (input/output multipliers; null when the model has no price).
 */
import { queryOptions } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import type { AvailableModels } from '@contract/pricing'

export type { AvailableModel, AvailableModels } from '@contract/pricing'

export const availableModelsQueryOptions = queryOptions({
  queryKey: ['model-prices', 'available'],
  queryFn: () => api.get<AvailableModels>('/api/available_model'),
})
