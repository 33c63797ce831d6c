/**
 * /oauth/github, /oauth/oidc, /oauth/lark: the provider sent the browser back
 * with code and state; GET /api/oauth/<provider>?code&state logs in (→ /panel) or, for a state
 * issued to a signed-in user, binds the account (→ /panel/profile). A failed attempt shows the
 * server's message and is retried up to 3 times with a visible count (the server keeps the state
 * until success), then the browser returns to /login — or to the profile when binding. A login
 * for another account than the signed-in one asks first (SwitchAccountDialog).
 */
import { useEffect, useMemo, useRef, useState } from 'react'
import { Link, getRouteApi, useNavigate } from '@tanstack/react-router'
import { Loader2, RotateCw, TriangleAlert } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert'
import { useCountdown } from '@/hooks/use-countdown'
import { errorMessage } from '@/lib/handle-error'
import { useAuthUser } from '@/stores/auth-store'
import { AuthCard } from '@/features/auth/components/auth-card'
import type { PendingSwitch } from '@contract/oauth'
import { useOAuthCallback } from './api'
import { BINDING_ICONS } from './components/provider-icons'
import { SwitchAccountDialog } from './components/switch-account-dialog'
import type { RedirectProvider } from './providers'

const route = getRouteApi('/_public/oauth/$provider')

export const MAX_RETRIES = 3
/** The n-th retry waits n × this many seconds. */
const RETRY_STEP_SECONDS = 2
/** How long the final failure stays on screen before going back. */
const GIVE_UP_MS = 3000

export function OAuthCallback() {
  const { t } = useTranslation('oauth')
  const navigate = useNavigate()
  const provider = route.useParams().provider as RedirectProvider
  // As sent by the provider: the router's search parsing would turn a numeric code into a number.
  const { code, state, providerError } = useMemo(() => {
    const query = new URLSearchParams(window.location.search)
    return {
      code: query.get('code') ?? '',
      state: query.get('state') ?? '',
      providerError: query.get('error_description') ?? query.get('error') ?? '',
    }
  }, [])
  const signedIn = useAuthUser() !== null
  const [pendingSwitch, setPendingSwitch] = useState<PendingSwitch>()
  const callback = useOAuthCallback(provider, setPendingSwitch)
  const countdown = useCountdown()
  const [attempt, setAttempt] = useState(0)
  const [failures, setFailures] = useState(0)
  const [lastError, setLastError] = useState('')
  const started = useRef(-1)
  const hasCode = Boolean(code && state)
  const exhausted = failures > MAX_RETRIES
  const giveUp = !hasCode || exhausted
  const backTo = signedIn ? '/panel/profile' : '/login'
  const name = t(`providers.${provider}`)
  const Icon = BINDING_ICONS[provider]

  // One call per attempt number: the guard (not the deps) keeps it to one, under StrictMode too,
  // so the mutation and countdown functions are deliberately not deps.
  useEffect(() => {
    if (!code || !state || started.current >= attempt) return
    started.current = attempt
    callback.mutate(
      { code, state },
      {
        onError: (err) => {
          setLastError(errorMessage(err))
          setFailures(attempt + 1)
          if (attempt < MAX_RETRIES) countdown.start((attempt + 1) * RETRY_STEP_SECONDS)
        },
      }
    )
  }, [attempt, code, state])

  // The next attempt starts when the countdown has run out.
  useEffect(() => {
    if (failures > attempt && failures <= MAX_RETRIES && !countdown.running) setAttempt(failures)
  }, [failures, attempt, countdown.running])

  useEffect(() => {
    if (!giveUp) return
    const timer = setTimeout(() => void navigate({ to: backTo }), GIVE_UP_MS)
    return () => clearTimeout(timer)
  }, [giveUp, backTo, navigate])

  const title = signedIn ? t('callback.bindTitle', { provider: name }) : t('callback.title', { provider: name })
  const retrying = failures > 0 && !exhausted

  return (
    <AuthCard
      title={title}
      footer={
        <Link to={backTo} className="font-medium text-primary hover:underline">
          {signedIn ? t('callback.backToProfile') : t('callback.backToLogin')}
        </Link>
      }
    >
      <SwitchAccountDialog pending={pendingSwitch} onStay={() => void navigate({ to: '/panel' })} />
      <div className="grid gap-4" data-testid="oauth-callback">
        {!hasCode ? (
          <Alert variant="destructive">
            <TriangleAlert />
            <AlertTitle>{t('callback.noCode')}</AlertTitle>
            {providerError && <AlertDescription>{providerError}</AlertDescription>}
          </Alert>
        ) : failures === 0 ? (
          <div className="flex flex-col items-center gap-3 py-4 text-sm text-muted-foreground">
            <span className="relative flex size-12 items-center justify-center rounded-full bg-muted">
              <Icon className="size-6" />
              <Loader2 className="absolute inset-0 size-12 animate-spin text-primary/40" strokeWidth={1.5} />
            </span>
            <p>{t('callback.working', { provider: name })}</p>
          </div>
        ) : (
          <Alert variant="destructive" data-testid="oauth-error">
            <TriangleAlert />
            <AlertTitle>{exhausted ? t('callback.failed') : t('callback.attemptFailed')}</AlertTitle>
            <AlertDescription className="break-words">{lastError}</AlertDescription>
          </Alert>
        )}
        {retrying && (
          <p className="flex items-center justify-center gap-2 text-sm text-muted-foreground" data-testid="oauth-retry">
            {countdown.running ? <RotateCw className="size-4" /> : <Loader2 className="size-4 animate-spin" />}
            {countdown.running
              ? t('callback.retryIn', { seconds: countdown.remaining, count: failures, max: MAX_RETRIES })
              : t('callback.retrying', { count: failures, max: MAX_RETRIES })}
          </p>
        )}
        {giveUp && (
          <p className="flex items-center justify-center gap-2 text-sm text-muted-foreground" data-testid="oauth-give-up">
            <Loader2 className="size-4 animate-spin" />
            {signedIn ? t('callback.returningProfile') : t('callback.returningLogin')}
          </p>
        )}
      </div>
    </AuthCard>
  )
}
