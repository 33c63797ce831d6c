/**
 * "Sign in with a passkey" on the login page: a usernameless WebAuthn sign-in (the browser lists
 * the passkeys it holds for this site); shown only where the browser supports WebAuthn.
 */
import { Fingerprint, Loader2 } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { browserSupportsWebAuthn } from '@simplewebauthn/browser'
import { Button } from '@/components/ui/button'
import { usePasskeySignIn } from '../api'

export function PasskeySignInButton() {
  const { t } = useTranslation('auth')
  const signIn = usePasskeySignIn()
  if (!browserSupportsWebAuthn()) return null
  return (
    <Button type="button" variant="outline" className="w-full" onClick={() => signIn.mutate()} disabled={signIn.isPending} data-testid="passkey-sign-in">
      {signIn.isPending ? <Loader2 className="animate-spin" /> : <Fingerprint />}
      {t('passkey.signIn')}
    </Button>
  )
}
