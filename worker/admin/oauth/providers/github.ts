/**
 * GitHub OAuth: exchange the callback code at github.com/login/oauth/access_token with the client
 * id and secret, then read the account from api.github.com/user. The bound id is GitHub's numeric
 * user id (stable across login renames); the login seeds the username.
 */
import type { Settings } from '../../../settings/store'
import type { ExternalIdentity } from '../accounts'
import { fetchJson, providerError } from '../provider-http'

export const GITHUB_TOKEN_URL = 'https://github.com/login/oauth/access_token'
export const GITHUB_USER_URL = 'https://api.github.com/user'

interface TokenAnswer {
  access_token?: string
  error?: string
  error_description?: string
}

interface GitHubUser {
  id?: number
  login?: string
  name?: string | null
  email?: string | null
  message?: string
}

export async function githubIdentity(settings: Settings, code: string): Promise<ExternalIdentity> {
  const token = await fetchJson<TokenAnswer>('GitHub', GITHUB_TOKEN_URL, {
    method: 'POST',
    headers: { accept: 'application/json', 'content-type': 'application/json' },
    body: JSON.stringify({ client_id: settings.str('GitHubClientId'), client_secret: settings.str('GitHubClientSecret'), code }),
  })
  if (!token.body.access_token) {
    throw providerError('GitHub', token.body.error_description || token.body.error || `no access token (status ${token.status})`)
  }
  const user = await fetchJson<GitHubUser>('GitHub', GITHUB_USER_URL, {
    headers: { authorization: `Bearer ${token.body.access_token}`, accept: 'application/vnd.github+json', 'user-agent': 'edge-ai-gateway' },
  })
  if (user.status !== 200 || typeof user.body.id !== 'number') {
    throw providerError('GitHub', user.body.message || `cannot read the GitHub user (status ${user.status})`)
  }
  return {
    id: String(user.body.id),
    username: user.body.login,
    displayName: user.body.name || user.body.login,
    email: user.body.email || undefined,
  }
}
