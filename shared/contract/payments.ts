/**
 * Wire shapes of the payment endpoints: gateways as admins (GET /api/payment/, /api/payment/:id,
 * /api/payment/types) and users (GET /api/user/payment) see them, orders (GET /api/payment/order,
 * /api/user/order) and a placed order (POST /api/user/order). Money fields are decimals of the
 * currency on the wire (the rows keep integer cents).
 */
import type { PaymentCurrency } from './payment-amount'

/** Gateway types by their one-hub ids (worker/payments/gateways/registry.ts has one gateway for each). */
export const GATEWAY_TYPES = ['stripe', 'alipay', 'wxpay', 'epay'] as const
export type GatewayType = (typeof GATEWAY_TYPES)[number]

export const ORDER_STATUSES = ['pending', 'success', 'failed', 'closed', 'refunded'] as const
export type OrderStatus = (typeof ORDER_STATUSES)[number]

/** One config field of a gateway type. */
export interface ConfigField {
  key: string
  /** Write-only: never returned by the API; an empty value on update keeps the stored one. */
  secret?: boolean
  required?: boolean
  /** `textarea` for PEM keys; `select` with `options`. */
  kind: 'text' | 'textarea' | 'select'
  options?: string[]
  /** Shown as the placeholder and used when the field is empty. */
  default?: string
  /** Rarely changed (API base URLs for sandboxes or local mocks). */
  advanced?: boolean
  /**
   * An address the gateway or the payer is sent to (API base, cashier): checked like every outbound
   * URL, and changing it drops the stored secrets, which must then be typed again.
   */
  host?: boolean
}

/** One entry of GET /api/payment/types. */
export interface GatewayTypeInfo {
  type: GatewayType
  currencies: readonly PaymentCurrency[]
  fields: ConfigField[]
}

/** A gateway as admins list it. */
export interface Gateway {
  id: number
  uuid: string
  name: string
  type: GatewayType
  icon: string
  currency: PaymentCurrency
  /** USD. */
  fixed_fee: number
  /** Fraction (0.05 = 5 %). */
  percent_fee: number
  sort: number
  enable: boolean
  notify_domain: string
  notify_url: string
  created_at: number
  updated_at: number
}

/** One gateway with its config (GET /api/payment/:id and the writes). */
export interface GatewayDetail extends Gateway {
  /** Secret fields are always empty here; `config_set` says which are stored. */
  config: Record<string, string>
  config_set: Record<string, boolean>
}

/** What a signed-in user sees of an enabled gateway. */
export interface UserGateway {
  uuid: string
  name: string
  type: GatewayType
  icon: string
  fixed_fee: number
  percent_fee: number
  currency: PaymentCurrency
  sort: number
}

export interface Order {
  id: number
  trade_no: string
  gateway_id: number
  gateway_name: string
  gateway_type: string
  gateway_no: string
  user_id: number
  username: string
  amount: number
  order_amount: number
  order_currency: string
  /** USD. */
  fee: number
  /** The fee in order_currency (null: an older non-USD order, whose rate was not kept; `fee` is its USD fee). */
  order_fee: number | null
  /** In order_currency: list price − paid. */
  discount: number
  quota: number
  status: OrderStatus
  created_at: number
  paid_at: number
  /** The plan a plan order buys (null: a top-up, whose `amount` and `quota` it adds). */
  plan_id: number | null
  /** That plan's name ('' for a top-up). */
  plan_name: string
}

/** A placed order: what the console does next (open a page, GET link or POSTed form, or show a QR code). */
export interface PlacedOrder {
  trade_no: string
  type: 'redirect' | 'qr'
  data: { url: string; method?: 'GET' | 'POST'; params?: Record<string, string> }
}

/** Body of POST /api/payment/ (create); PUT /api/payment/ takes `id` and any subset of it. */
export type GatewayBody = Omit<Gateway, 'id' | 'uuid' | 'notify_url' | 'created_at' | 'updated_at'> & { config: Record<string, string> }

/** Body of PUT /api/payment/: the gateway and the fields that change. */
export type GatewayPatch = Partial<GatewayBody> & { id: number }

/** Body of POST /api/user/order: the chosen gateway (its uuid) and the whole amount to top up. */
export interface OrderBody {
  uuid: string
  amount: number
}
