/**
 * The one interface every payment gateway implements (one folder each, listed in registry.ts):
 * its config fields (which are secrets, which are required), how to start a payment, how to read
 * and verify a notify, how to answer the gateway, and optionally how to ask the gateway about an
 * order (used before the cron closes it) and what to do when the gateway is created (Stripe
 * registers its webhook). A gateway with recurring payments (Stripe) also starts a recurring charge
 * when asked (`PayInput.recurring`), reports its cycles (`renewed`) and its end (`recurring_stopped`)
 * and switches its renewal on or off (`recurring.setRenewal`). Gateways never touch D1 or the wallet:
 * the order service (payments.service.ts, plan-renewals.ts) does.
 */
import type { z } from 'zod'
import type { PaymentCurrency } from '../../../shared/contract/payment-amount'
import type { ConfigField, GatewayType } from '../../../shared/contract/payments'

export interface PayInput {
  tradeNo: string
  /** What to charge, in cents (fen) of `currency`. */
  payCents: number
  currency: PaymentCurrency
  notifyUrl: string
  returnUrl: string
  /** Product line shown by the gateway ("{SystemName} top-up {money} {currency}"). */
  subject: string
  user: { id: number; email: string }
  /** Charge this much again every `count` × `interval` until stopped (gateways with `recurring` only). */
  recurring?: { interval: RecurringInterval; count: number; planId: number }
}

/** The intervals a recurring charge can repeat at (Stripe has no hourly one). */
export const RECURRING_INTERVALS = ['day', 'week', 'month', 'year'] as const
export type RecurringInterval = (typeof RECURRING_INTERVALS)[number]

/** What the console does next: open a page (GET link or POSTed form) or show a QR code. */
export type PayRequest =
  | { type: 'redirect'; data: { url: string; method?: 'GET' | 'POST'; params?: Record<string, string> }; gatewayRef?: string }
  | { type: 'qr'; data: { url: string }; gatewayRef?: string }

/** A notify as received: the raw body is kept for the signature and for the log. */
export interface NotifyRequest {
  method: string
  url: URL
  headers: Headers
  body: string
}

export interface PaidNotify {
  kind: 'paid'
  tradeNo: string
  gatewayNo: string
  /** What the gateway says was paid, in cents (fen). */
  amountCents: number
  currency: PaymentCurrency | string
  /** The gateway's recurring subscription this first payment started (a recurring order only). */
  recurringId?: string
}

/** A later cycle of a recurring charge was paid: it renews the subscription the recurring id backs. */
export interface RenewedNotify {
  kind: 'renewed'
  recurringId: string
  /** The gateway's id of this cycle's payment (Stripe invoice id): a cycle renews once. */
  invoiceId: string
  amountCents: number
  currency: PaymentCurrency | string
}

/**
 * `paid`: signature verified, a completed payment. `renewed`: a recurring charge's later cycle was
 * paid. `recurring_stopped`: the gateway ended a recurring charge (no more cycles). `ignored`: verified
 * but nothing to do (another event type, a payment still waiting): acknowledged so the gateway stops.
 * `invalid`: refused (bad or missing signature, wrong merchant, undecryptable): answered with the
 * gateway's failure.
 */
export type NotifyOutcome =
  | PaidNotify
  | RenewedNotify
  | { kind: 'recurring_stopped'; recurringId: string }
  | { kind: 'ignored'; reason: string; tradeNo?: string }
  | { kind: 'invalid'; reason: string; tradeNo?: string }

/** `ok`: handled (or a duplicate); `reject`: refused for good reason; `retry`: our failure, send it again. */
export type AckKind = 'ok' | 'reject' | 'retry'

export interface QueryResult {
  paid: boolean
  gatewayNo?: string
  amountCents?: number
  currency?: string
  recurringId?: string
}

export interface OrderRef {
  tradeNo: string
  gatewayRef: string
}

export interface Gateway<C = Record<string, string>> {
  type: GatewayType
  /** Currencies the gateway can charge in. */
  currencies: readonly PaymentCurrency[]
  fields: ConfigField[]
  /** Validates a full config (after secrets were merged back). */
  schema: z.ZodType<C>
  pay(config: C, input: PayInput): Promise<PayRequest>
  parseNotify(config: C, req: NotifyRequest): Promise<NotifyOutcome>
  ack(kind: AckKind, message?: string): Response
  /** Ask the gateway whether the order was paid (undefined: the gateway cannot be asked). */
  query?(config: C, order: OrderRef): Promise<QueryResult | undefined>
  /** Runs once the gateway has its uuid (notify URL known); returns the config to store. */
  onSave?(config: C, ctx: { notifyUrl: string; created: boolean }): Promise<C>
  /** Recurring charges (`PayInput.recurring`): present only on gateways that have them. */
  recurring?: {
    /** Keep renewing (`true`) or stop at the end of the paid period; `gone` when the gateway ended it already. */
    setRenewal(config: C, recurringId: string, renew: boolean): Promise<'ok' | 'gone'>
  }
}

/** Thrown by `pay`, `query` and `onSave` when the gateway answered with an error. */
export class GatewayError extends Error {
  constructor(
    message: string,
    readonly detail?: unknown
  ) {
    super(message)
  }
}
