/** Types of scripts/mock-payments.mjs for the e2e tests. */
export interface GatewayPreset {
  currency: 'USD' | 'CNY'
  config: Record<string, string>
}
export interface MockDelivery {
  kind: string
  tradeNo: string
  tamper: string | null
  status: number
  body: string
}
export interface MockPayments {
  url: string
  configs(): Record<'stripe' | 'alipay' | 'wxpay' | 'epay', GatewayPreset>
  deliveries: MockDelivery[]
  /** The Stripe mock's Subscriptions by id (plan auto-renew). */
  stripeSubscriptions: Map<string, { id: string; status: string; cancel_at_period_end: boolean }>
  stop(): Promise<void>
}
export function startMockPayments(options?: { port?: number; host?: string }): Promise<MockPayments>
