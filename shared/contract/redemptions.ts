/** Wire shape of a redemption code in the admin list (GET /api/redemption/); `status` uses REDEMPTION_STATUS. */
export interface Redemption {
  id: number
  name: string
  /** The first characters of the code's SHA-256 followed by '…' (the plain code is shown only at creation). */
  key: string
  status: number
  quota: number
  /** The subscription plan the code grants instead of quota (0: a quota code). */
  plan_id: number
  /** The user who redeemed it (0 until then). */
  user_id: number
  created_by: number
  created_time: number
  /** 0 until redeemed. */
  redeemed_time: number
}

/** Answer of POST /api/user/topup: the units a code added and the caller's balance after it. */
export interface RedeemResult {
  quota: number
  balance: number
  /** A plan code: the subscription it started (quota is then 0). */
  subscription?: { id: number; plan_id: number; name: string }
}
