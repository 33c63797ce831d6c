/**
 * Stripe Checkout Sessions through the official `stripe` package (its fetch HTTP client and Web
 * Crypto provider, so it runs on Workers).
 * - On save: the webhook endpoint for our notify URL is registered (or reused when we hold its
 *   secret; one we lost the secret of is replaced) and its `whsec_…` secret kept in the config.
 * - Pay: a Checkout Session in USD/CNY for exactly the order's cents, `client_reference_id` = trade_no.
 * - Recurring (plan auto-renew): the session is `mode: 'subscription'` with an inline recurring
 *   price of the order's cents every count × interval; its completion names the `sub_…` it started.
 *   Before it, our webhook endpoint must send the invoice and subscription events: one registered
 *   before auto-renew existed is given them in place (its secret stays), and without an endpoint
 *   the order is refused — else Stripe would charge each cycle and we would never hear of it.
 *   `invoice.paid` of a later cycle (billing_reason `subscription_cycle`) is `renewed`,
 *   `customer.subscription.deleted` is `recurring_stopped`; `setRenewal` flips the Subscription's
 *   `cancel_at_period_end`.
 * - Notify: `constructEventAsync` checks the signature and the 5-minute timestamp tolerance;
 *   `checkout.session.completed` with payment_status `paid`, or `async_payment_succeeded`, is a
 *   payment (amount_total and currency are compared by the order service); any other event is
 *   acknowledged with 200; a bad signature gets 400.
 */
import Stripe from 'stripe'
import { z } from 'zod'
import { GatewayError, type Gateway, type NotifyOutcome, type PaidNotify } from '../types'

const EVENTS = ['checkout.session.completed', 'checkout.session.async_payment_succeeded', 'invoice.paid', 'customer.subscription.deleted'] as const
const SESSION_EVENTS: readonly string[] = ['checkout.session.completed', 'checkout.session.async_payment_succeeded']
const TOLERANCE_SECONDS = 300

const schema = z.object({
  secret_key: z
    .string()
    .trim()
    .regex(/^(sk|rk)_(test|live)_\w+$/, 'must be a secret key (sk_live_… or sk_test_…)'),
  webhook_secret: z.string().trim().max(200).default(''),
  api_base: z.union([z.literal(''), z.url()]).default(''),
})
export type StripeConfig = z.infer<typeof schema>

const crypto = Stripe.createSubtleCryptoProvider()

export function stripeClient(config: StripeConfig): Stripe {
  const options: Stripe.StripeConfig = { httpClient: Stripe.createFetchHttpClient(), maxNetworkRetries: 1, timeout: 20_000, telemetry: false }
  if (config.api_base) {
    const u = new URL(config.api_base)
    options.host = u.hostname
    options.port = u.port || (u.protocol === 'http:' ? 80 : 443)
    options.protocol = u.protocol === 'http:' ? 'http' : 'https'
  }
  return new Stripe(config.secret_key, options)
}

const idOf = (v: string | { id: string } | null | undefined) => (typeof v === 'string' ? v : (v?.id ?? ''))

function paidFrom(session: Stripe.Checkout.Session): PaidNotify | undefined {
  if (session.payment_status !== 'paid' || !session.client_reference_id || session.amount_total === null) return undefined
  // A subscription-mode session has no payment intent: its first invoice is the transaction.
  const recurringId = session.mode === 'subscription' ? idOf(session.subscription) : ''
  return {
    kind: 'paid',
    tradeNo: session.client_reference_id,
    gatewayNo: idOf(session.payment_intent) || idOf(session.invoice) || session.id,
    amountCents: session.amount_total,
    currency: (session.currency ?? '').toUpperCase(),
    ...(recurringId ? { recurringId } : {}),
  }
}

/** The subscription an invoice belongs to (`parent.subscription_details` since 2025-03; `subscription` before). */
function invoiceSubscription(invoice: Stripe.Invoice): string {
  return idOf(invoice.parent?.subscription_details?.subscription) || idOf((invoice as { subscription?: string | { id: string } | null }).subscription)
}

/** A verified event's outcome: sessions pay, cycle invoices renew, a deleted subscription stops. */
function outcomeOf(event: Stripe.Event): NotifyOutcome {
  if (event.type === 'invoice.paid') {
    const invoice = event.data.object
    const recurringId = invoiceSubscription(invoice)
    // The first invoice (subscription_create) is the checkout's own payment.
    if (invoice.billing_reason !== 'subscription_cycle' || !recurringId || !invoice.id) return { kind: 'ignored', reason: `invoice.paid (${invoice.billing_reason})` }
    return { kind: 'renewed', recurringId, invoiceId: invoice.id, amountCents: invoice.amount_paid, currency: invoice.currency.toUpperCase() }
  }
  if (event.type === 'customer.subscription.deleted') return { kind: 'recurring_stopped', recurringId: event.data.object.id }
  if (!SESSION_EVENTS.includes(event.type)) return { kind: 'ignored', reason: `event ${event.type}` }
  const session = event.data.object as Stripe.Checkout.Session
  const paid = paidFrom(session)
  if (!paid) return { kind: 'ignored', reason: `${event.type} with payment_status ${session.payment_status}`, tradeNo: session.client_reference_id ?? undefined }
  return paid
}

const complete = (e: Stripe.WebhookEndpoint) => EVENTS.every((ev) => e.enabled_events.includes(ev) || e.enabled_events.includes('*'))

/** Our webhook endpoint sends every event a recurring payment needs (updated in place when it lacks some). */
async function ensureRecurringEvents(client: Stripe, notifyUrl: string): Promise<void> {
  const mine = (await client.webhookEndpoints.list({ limit: 100 }).catch(describeError)).data.filter((e) => e.url === notifyUrl)
  if (mine.length === 0) throw new GatewayError('Stripe has no webhook endpoint for this gateway; save the gateway again before selling auto-renewing plans')
  for (const e of mine) if (!complete(e)) await client.webhookEndpoints.update(e.id, { enabled_events: [...EVENTS] }).catch(describeError)
}

async function describeError(err: unknown): Promise<never> {
  const message = err instanceof Stripe.errors.StripeError ? err.message : String((err as Error)?.message ?? err)
  throw new GatewayError(`Stripe: ${message}`)
}

export const stripe: Gateway<StripeConfig> = {
  type: 'stripe',
  currencies: ['USD', 'CNY'],
  fields: [
    { key: 'secret_key', kind: 'text', required: true, secret: true },
    { key: 'webhook_secret', kind: 'text', secret: true },
    { key: 'api_base', kind: 'text', default: 'https://api.stripe.com', advanced: true, host: true },
  ],
  schema,

  async pay(config, input) {
    const metadata = { trade_no: input.tradeNo, user_id: String(input.user.id), ...(input.recurring ? { plan_id: String(input.recurring.planId) } : {}) }
    const price = { currency: input.currency.toLowerCase(), unit_amount: input.payCents, product_data: { name: input.subject } }
    const client = stripeClient(config)
    if (input.recurring) await ensureRecurringEvents(client, input.notifyUrl)
    const session = await client.checkout.sessions
      .create({
        success_url: input.returnUrl,
        cancel_url: input.returnUrl,
        client_reference_id: input.tradeNo,
        metadata,
        ...(input.recurring
          ? {
              mode: 'subscription',
              line_items: [{ quantity: 1, price_data: { ...price, recurring: { interval: input.recurring.interval, interval_count: input.recurring.count } } }],
              subscription_data: { metadata },
            }
          : { mode: 'payment', line_items: [{ quantity: 1, price_data: price }] }),
        ...(input.user.email ? { customer_email: input.user.email } : {}),
      })
      .catch(describeError)
    if (!session.url) throw new GatewayError('Stripe created a session without a URL')
    return { type: 'redirect', data: { url: session.url, method: 'GET' }, gatewayRef: session.id }
  },

  async parseNotify(config, req) {
    const header = req.headers.get('stripe-signature')
    if (!header) return { kind: 'invalid', reason: 'no Stripe-Signature header' }
    if (!config.webhook_secret) return { kind: 'invalid', reason: 'no webhook secret configured' }
    let event: Stripe.Event
    try {
      event = await stripeClient(config).webhooks.constructEventAsync(req.body, header, config.webhook_secret, TOLERANCE_SECONDS, crypto)
    } catch (err) {
      return {
        kind: 'invalid',
        reason: `signature: ${String((err as Error).message)
          .split('\n')[0]!
          .trim()}`,
      }
    }
    return outcomeOf(event)
  },

  ack(kind, message) {
    if (kind === 'ok') return Response.json({ received: true })
    return Response.json({ error: message ?? (kind === 'retry' ? 'temporarily unable to process' : 'refused') }, { status: kind === 'retry' ? 500 : 400 })
  },

  async query(config, order) {
    if (!order.gatewayRef) return undefined
    const session = await stripeClient(config).checkout.sessions.retrieve(order.gatewayRef).catch(describeError)
    if (session.client_reference_id !== order.tradeNo) return { paid: false }
    const paid = paidFrom(session)
    return paid ? { paid: true, gatewayNo: paid.gatewayNo, amountCents: paid.amountCents, currency: paid.currency, recurringId: paid.recurringId } : { paid: false }
  },

  async onSave(config, { notifyUrl }) {
    const client = stripeClient(config)
    const endpoints = await client.webhookEndpoints.list({ limit: 100 }).catch(describeError)
    const mine = endpoints.data.filter((e) => e.url === notifyUrl)
    // An endpoint we hold the secret of is reused (the list never returns secrets); others are replaced.
    if (config.webhook_secret && mine.some(complete)) return config
    for (const e of mine) await client.webhookEndpoints.del(e.id).catch(describeError)
    const created = await client.webhookEndpoints.create({ url: notifyUrl, enabled_events: [...EVENTS], description: 'edge-ai-gateway top-up' }).catch(describeError)
    if (!created.secret) throw new GatewayError('Stripe created the webhook endpoint without a secret')
    return { ...config, webhook_secret: created.secret }
  },

  recurring: {
    async setRenewal(config, recurringId, renew) {
      const client = stripeClient(config)
      try {
        const sub = await client.subscriptions.update(recurringId, { cancel_at_period_end: !renew })
        return sub.status === 'canceled' ? 'gone' : 'ok'
      } catch (err) {
        // A deleted (canceled) Subscription can no longer be updated; an unknown one is gone too.
        if (err instanceof Stripe.errors.StripeInvalidRequestError && (err.statusCode === 404 || /cancel/i.test(err.message))) return 'gone'
        return describeError(err)
      }
    },
  },
}
