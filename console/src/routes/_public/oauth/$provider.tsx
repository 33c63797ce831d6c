/**
 * `/oauth/github`, `/oauth/oidc`, `/oauth/lark`: where the providers send the browser back
 * (?code&state). The page reads the query as sent (the router's search parsing would turn a
 * numeric code into a number); any other provider name is a 404.
 */
import { createFileRoute, notFound } from '@tanstack/react-router'
import { loadNamespaces } from '@/i18n'
import { OAuthCallback } from '@/features/oauth'
import { isRedirectProvider } from '@/features/oauth/providers'

export const Route = createFileRoute('/_public/oauth/$provider')({
  beforeLoad: ({ params }) => {
    if (!isRedirectProvider(params.provider)) throw notFound()
  },
  loader: () => loadNamespaces('auth', 'oauth'),
  component: OAuthCallback,
})
