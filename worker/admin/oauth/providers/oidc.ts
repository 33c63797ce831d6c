/**
 * OpenID Connect: discovery from `${OIDCIssuer}/.well-known/openid-configuration` (cached per
 * isolate for 10 minutes), the authorization URL (scopes from OIDCScopes, state and nonce from
 * the state store, redirect `{site}/oauth/oidc`), the code exchange with the client secret
 * (HTTP Basic unless only client_secret_post is offered), and the ID token verified with jose
 * against the provider's JWKS: signature, issuer, audience (client id), expiry and nonce. The
 * username comes from the first non-empty claim of OIDCUsernameClaims; userinfo fills missing claims.
 */
import { createRemoteJWKSet, errors as joseErrors, jwtVerify, type JWTPayload } from 'jose'
import { z } from 'zod'
import { ApiError } from '../../../lib/errors'
import { onIsolateReset } from '../../../cache/isolate'
import type { Settings } from '../../../settings/store'
import type { ExternalIdentity } from '../accounts'
import { fetchJson, providerError } from '../provider-http'

const DISCOVERY_TTL_MS = 10 * 60 * 1000

const discoverySchema = z.object({
  issuer: z.string().min(1),
  authorization_endpoint: z.url(),
  token_endpoint: z.url(),
  jwks_uri: z.url(),
  userinfo_endpoint: z.url().optional(),
  token_endpoint_auth_methods_supported: z.array(z.string()).optional(),
})
export type Discovery = z.infer<typeof discoverySchema>

const discoveries = new Map<string, { doc: Discovery; expires: number }>()
const jwksSets = new Map<string, ReturnType<typeof createRemoteJWKSet>>()
onIsolateReset(() => {
  discoveries.clear()
  jwksSets.clear()
})

const trimSlash = (s: string) => s.trim().replace(/\/+$/, '')

export async function discover(issuerSetting: string): Promise<Discovery> {
  const issuer = trimSlash(issuerSetting)
  const cached = discoveries.get(issuer)
  if (cached && cached.expires > Date.now()) return cached.doc
  const answer = await fetchJson<unknown>('OIDC provider', `${issuer}/.well-known/openid-configuration`)
  const parsed = discoverySchema.safeParse(answer.body)
  if (answer.status !== 200 || !parsed.success) throw new ApiError(502, 'OIDC discovery failed: the provider configuration is unreadable')
  if (trimSlash(parsed.data.issuer) !== issuer) {
    throw new ApiError(502, `OIDC discovery failed: the provider says its issuer is ${parsed.data.issuer}, not ${issuer}`)
  }
  discoveries.set(issuer, { doc: parsed.data, expires: Date.now() + DISCOVERY_TTL_MS })
  return parsed.data
}

export const oidcRedirectUri = (siteBase: string) => `${siteBase}/oauth/oidc`

export function oidcScopes(settings: Settings): string {
  const scopes = settings
    .str('OIDCScopes')
    .split(/[,\s]+/)
    .map((s) => s.trim())
    .filter(Boolean)
  return (scopes.length ? scopes : ['openid', 'email', 'profile']).join(' ')
}

export async function oidcAuthorizationUrl(settings: Settings, siteBase: string, state: string, nonce: string): Promise<string> {
  const doc = await discover(settings.str('OIDCIssuer'))
  const url = new URL(doc.authorization_endpoint)
  url.searchParams.set('response_type', 'code')
  url.searchParams.set('client_id', settings.str('OIDCClientId'))
  url.searchParams.set('redirect_uri', oidcRedirectUri(siteBase))
  url.searchParams.set('scope', oidcScopes(settings))
  url.searchParams.set('state', state)
  url.searchParams.set('nonce', nonce)
  return url.toString()
}

interface TokenAnswer {
  id_token?: string
  access_token?: string
  error?: string
  error_description?: string
}

async function exchangeCode(settings: Settings, doc: Discovery, siteBase: string, code: string): Promise<TokenAnswer> {
  const clientId = settings.str('OIDCClientId')
  const secret = settings.str('OIDCClientSecret')
  const form = new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: oidcRedirectUri(siteBase) })
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' }
  const methods = doc.token_endpoint_auth_methods_supported ?? []
  if (methods.includes('client_secret_post') && !methods.includes('client_secret_basic')) {
    form.set('client_id', clientId)
    form.set('client_secret', secret)
  } else {
    headers.authorization = `Basic ${btoa(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`)}`
  }
  const answer = await fetchJson<TokenAnswer>('OIDC provider', doc.token_endpoint, { method: 'POST', headers, body: form.toString() })
  if (answer.status !== 200 || !answer.body.id_token) {
    throw providerError('OIDC', answer.body.error_description || answer.body.error || `no ID token (status ${answer.status})`)
  }
  return answer.body
}

async function verifyIdToken(settings: Settings, doc: Discovery, idToken: string, nonce: string): Promise<JWTPayload> {
  let jwks = jwksSets.get(doc.jwks_uri)
  if (!jwks) {
    jwks = createRemoteJWKSet(new URL(doc.jwks_uri), { timeoutDuration: 10_000 })
    jwksSets.set(doc.jwks_uri, jwks)
  }
  let payload: JWTPayload
  try {
    ;({ payload } = await jwtVerify(idToken, jwks, { issuer: doc.issuer, audience: settings.str('OIDCClientId') }))
  } catch (err) {
    // Anything but a JOSE verdict on the token is a failure to fetch the provider's keys.
    if (err instanceof joseErrors.JWKSTimeout || !(err instanceof joseErrors.JOSEError)) {
      throw new ApiError(502, 'OIDC provider is unreachable (JWKS)', { cause: err })
    }
    throw providerError('OIDC', `the ID token is invalid (${err.code})`)
  }
  if (payload.nonce !== nonce) throw providerError('OIDC', 'the ID token nonce does not match')
  if (!payload.sub) throw providerError('OIDC', 'the ID token has no subject')
  return payload
}

function usernameFrom(settings: Settings, claims: Record<string, unknown>): string | undefined {
  for (const name of settings
    .str('OIDCUsernameClaims')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const value = claims[name]
    if (typeof value === 'string' && value.trim()) return value.trim()
  }
  return undefined
}

async function userInfo(doc: Discovery, accessToken: string, sub: string): Promise<Record<string, unknown>> {
  if (!doc.userinfo_endpoint || !accessToken) return {}
  const answer = await fetchJson<Record<string, unknown>>('OIDC provider', doc.userinfo_endpoint, {
    headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
  })
  // Claims of another subject are ignored (OIDC Core 5.3.2).
  return answer.status === 200 && answer.body.sub === sub ? answer.body : {}
}

export async function oidcIdentity(settings: Settings, siteBase: string, code: string, nonce: string): Promise<ExternalIdentity> {
  const doc = await discover(settings.str('OIDCIssuer'))
  const tokens = await exchangeCode(settings, doc, siteBase, code)
  let claims: Record<string, unknown> = await verifyIdToken(settings, doc, tokens.id_token!, nonce)
  if (!usernameFrom(settings, claims) || typeof claims.email !== 'string') {
    claims = { ...(await userInfo(doc, tokens.access_token ?? '', String(claims.sub))), ...claims }
  }
  // An address counts only when the provider says it verified it (an absent claim is not a yes).
  const email = typeof claims.email === 'string' && claims.email_verified === true ? claims.email : undefined
  const username = usernameFrom(settings, claims)
  return {
    id: String(claims.sub),
    username,
    displayName: typeof claims.name === 'string' ? claims.name : username,
    email,
  }
}
