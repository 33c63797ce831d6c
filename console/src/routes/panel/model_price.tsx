/** `/panel/model_price`: the models the user can call and what they cost; list state in the URL. */
import { createFileRoute } from '@tanstack/react-router'
import { z } from 'zod'
import { loadNamespaces } from '@/i18n'
import { ModelPrices } from '@/features/model-prices'

const searchSchema = z.object({
  p: z.number().int().min(1).optional().catch(undefined),
  page_size: z.number().int().min(1).max(100).optional().catch(undefined),
  order: z.string().max(40).optional().catch(undefined),
  keyword: z.string().max(200).optional().catch(undefined),
  owned_by: z.string().max(100).optional().catch(undefined),
})

export const Route = createFileRoute('/panel/model_price')({
  validateSearch: searchSchema,
  loader: () => loadNamespaces('model-prices', 'table'),
  component: ModelPrices,
})
