/** Wire shapes of the passkey endpoints (/api/user/passkey…): one registered passkey as its owner sees it. */

export interface PasskeyView {
  id: number
  name: string
  /** Transports the authenticator named at registration (usb, nfc, ble, internal, hybrid). */
  transports: string[]
  /** A synced passkey (backed up by its provider). */
  backed_up: boolean
  created_at: number
  /** 0 until the first sign-in with it. */
  last_used_at: number
}

/** Longest passkey name. */
export const PASSKEY_NAME_MAX = 64
