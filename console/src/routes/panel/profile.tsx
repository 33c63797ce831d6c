/** `/panel/profile`. */
import { createFileRoute } from '@tanstack/react-router'
import { loadNamespaces } from '@/i18n'
import { Profile } from '@/features/profile'

export const Route = createFileRoute('/panel/profile')({ loader: () => loadNamespaces('profile', 'auth', 'oauth', 'table'), component: Profile })
