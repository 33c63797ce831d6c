/** `/login`. */
import { createFileRoute } from '@tanstack/react-router'
import { loadNamespaces } from '@/i18n'
import { Login } from '@/features/auth/login'

export const Route = createFileRoute('/_public/login')({ loader: () => loadNamespaces('auth', 'oauth'), component: Login })
