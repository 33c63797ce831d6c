/** `/reset`: request a password-reset email. */
import { createFileRoute } from '@tanstack/react-router'
import { loadNamespaces } from '@/i18n'
import { ResetRequest } from '@/features/auth/reset'

export const Route = createFileRoute('/_public/reset')({ loader: () => loadNamespaces('auth', 'oauth'), component: ResetRequest })
