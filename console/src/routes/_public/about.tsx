/** `/about`. */
import { createFileRoute } from '@tanstack/react-router'
import { loadNamespaces } from '@/i18n'
import { About } from '@/features/about'

export const Route = createFileRoute('/_public/about')({ loader: () => loadNamespaces('home'), component: About })
