/**
 * Cloudflare Turnstile for the calls the server guards with it (login, register, verification
 * code, reset mail) when the site info says `turnstile_check`. The widget script is loaded only
 * then, once per page, from challenges.cloudflare.com (allowed by the CSP). `check()` refuses a
 * submit while no token has arrived ('Turnstile checking, retry in a few seconds'); a token is
 * good for one call, so callers `reset()` the widget after every call that used it.
 */
import { useCallback, useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useTheme } from '@/context/theme-provider'
import { notify } from '@/lib/notify'
import { useSiteInfo } from '@/features/site/api'

export const TURNSTILE_SCRIPT = 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit'

interface TurnstileRenderOptions {
  sitekey: string
  theme?: 'light' | 'dark' | 'auto'
  size?: 'normal' | 'compact' | 'flexible'
  language?: string
  callback?: (token: string) => void
  'expired-callback'?: () => void
  'error-callback'?: () => void
}

interface TurnstileApi {
  render(container: HTMLElement, options: TurnstileRenderOptions): string | undefined
  reset(widgetId?: string): void
  remove(widgetId?: string): void
}

declare global {
  interface Window {
    turnstile?: TurnstileApi
  }
}

let scriptLoading: Promise<TurnstileApi> | undefined

function loadTurnstile(): Promise<TurnstileApi> {
  if (window.turnstile) return Promise.resolve(window.turnstile)
  scriptLoading ??= new Promise<TurnstileApi>((resolve, reject) => {
    const script = document.createElement('script')
    script.src = TURNSTILE_SCRIPT
    script.async = true
    script.onload = () => (window.turnstile ? resolve(window.turnstile) : reject(new Error('Turnstile did not start')))
    script.onerror = () => {
      // Let a later page try again.
      scriptLoading = undefined
      script.remove()
      reject(new Error('Turnstile could not be loaded'))
    }
    document.head.appendChild(script)
  })
  return scriptLoading
}

/** The widget needs 300 px; narrower places (a phone-width card) get the compact one. */
const NORMAL_WIDTH = 300

export interface Turnstile {
  /** The site asks for a token on guarded calls. */
  enabled: boolean
  /** The current token (undefined when disabled or not solved yet). */
  token: string | undefined
  /** The widget script could not be loaded. */
  failed: boolean
  /** True when a guarded call may go out now; otherwise tells the user to wait. */
  check(): boolean
  /** Asks the widget for a fresh token (after any call that used the current one). */
  reset(): void
  /** Ref for the element the widget renders into. */
  containerRef(element: HTMLDivElement | null): void
}

export function useTurnstile(): Turnstile {
  const { t } = useTranslation('oauth')
  const site = useSiteInfo()
  const { theme } = useTheme()
  const enabled = site.turnstile_check
  const [container, setContainer] = useState<HTMLDivElement | null>(null)
  const [token, setToken] = useState('')
  const [failed, setFailed] = useState(false)
  const widgetId = useRef<string | undefined>(undefined)

  useEffect(() => {
    if (!enabled || !container) return
    let cancelled = false
    loadTurnstile()
      .then((api) => {
        if (cancelled) return
        setFailed(false)
        widgetId.current = api.render(container, {
          sitekey: site.turnstile_site_key,
          theme,
          size: container.clientWidth > 0 && container.clientWidth < NORMAL_WIDTH ? 'compact' : 'normal',
          language: 'auto',
          callback: (value) => setToken(value),
          'expired-callback': () => setToken(''),
          'error-callback': () => setToken(''),
        })
      })
      .catch(() => {
        if (!cancelled) setFailed(true)
      })
    return () => {
      cancelled = true
      if (widgetId.current !== undefined) window.turnstile?.remove(widgetId.current)
      widgetId.current = undefined
      setToken('')
    }
  }, [enabled, container, site.turnstile_site_key, theme])

  const reset = useCallback(() => {
    setToken('')
    if (widgetId.current !== undefined) window.turnstile?.reset(widgetId.current)
  }, [])

  const check = useCallback(() => {
    if (!enabled || token) return true
    notify.info(t('turnstile.checking'))
    return false
  }, [enabled, token, t])

  return { enabled, token: enabled && token ? token : undefined, failed, check, reset, containerRef: setContainer }
}
