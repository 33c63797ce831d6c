/** `/panel/token`: API keys; page, size, sort, search and the admins' all-users mode live in the URL. */
import { createFileRoute } from '@tanstack/react-router'
import { z } from 'zod'
import { loadNamespaces } from '@/i18n'
import { Tokens } from '@/features/tokens'

const id = z.number().int().min(1).optional().catch(undefined)

const searchSchema = z.object({
  p: id,
  page_size: z.number().int().min(1).max(100).optional().catch(undefined),
  order: z.string().max(40).optional().catch(undefined),
  keyword: z.union([z.string(), z.number()]).transform(String).pipe(z.string().max(100)).optional().catch(undefined),
  scope: z.literal('all').optional().catch(undefined),
  user_id: id,
  token_id: id,
})

export const Route = createFileRoute('/panel/token')({
  validateSearch: searchSchema,
  loader: () => loadNamespaces('tokens'),
  component: Tokens,
})
