/** `/jump?url=<chat-link template>#key=<sk-…>`: fills in the key and the server, then redirects (app links after a confirmation). */
import { createFileRoute } from '@tanstack/react-router'
import { z } from 'zod'
import { loadNamespaces } from '@/i18n'
import { Jump } from '@/features/jump'

// The router parses query values as JSON where it can: a numeric-looking value arrives as a number.
const text = (max: number) => z.union([z.string(), z.number()]).transform(String).pipe(z.string().max(max)).optional().catch(undefined)

// The key is not a search parameter: it travels in the fragment (features/jump).
const searchSchema = z.object({ url: text(4000) })

export const Route = createFileRoute('/_public/jump')({
  validateSearch: searchSchema,
  loader: () => loadNamespaces('jump'),
  component: Jump,
})
