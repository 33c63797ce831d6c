/**
 * Zod shapes of passkey ceremonies at the route edge: a new credential (registration) and an
 * assertion (sign-in, second factor, step-up), base64url fields with size limits.
 */
import { z } from 'zod'
import { PASSKEY_NAME_MAX } from '../../../shared/contract/passkeys'

const b64url = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(/^[A-Za-z0-9_-]+$/, 'must be base64url')
export const passkeyName = z.string().trim().min(1, 'is required').max(PASSKEY_NAME_MAX, `at most ${PASSKEY_NAME_MAX} characters`)
const transports = z.array(z.enum(['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb'])).max(8)
const credentialBase = {
  id: b64url(1400),
  rawId: b64url(1400),
  type: z.literal('public-key'),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
}
export const registerSchema = z.object({
  name: passkeyName,
  response: z.object({
    ...credentialBase,
    response: z.object({
      clientDataJSON: b64url(4096),
      attestationObject: b64url(16384),
      transports: transports.optional(),
    }),
  }),
})
/** A WebAuthn assertion (navigator.credentials.get), as @simplewebauthn/browser sends it. */
export const assertionSchema = z.object({
  ...credentialBase,
  response: z.object({
    clientDataJSON: b64url(4096),
    authenticatorData: b64url(4096),
    signature: b64url(1024),
    userHandle: b64url(128).optional(),
  }),
})
