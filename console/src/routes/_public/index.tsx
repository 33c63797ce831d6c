/** `/` home. */
import { createFileRoute } from '@tanstack/react-router'
import { loadNamespaces } from '@/i18n'
import { Home } from '@/features/home'

export const Route = createFileRoute('/_public/')({ loader: () => loadNamespaces('home'), component: Home })
