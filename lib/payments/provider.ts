/**
 * Payment providers behind one interface. A provider creates a checkout for a payment (a pack, or
 * the first period of a plan), takes part in the recurring billing of later periods, and turns a
 * webhook request (raw body + headers) into a verified event; an unverifiable request throws
 * `WebhookSignatureError` (→ 400, nothing changed). Credit is granted only from verified events
 * (lib/payments/service.ts), never from the buyer's return to a success URL.
 *
 * Recurring billing (docs/account.md) comes in two shapes, told apart by `recurringCharges`:
 * - 'service': the service starts each period's charge (`chargePeriod`, called by the period's
 *   refill workflow) and the provider confirms it by webhook — the local provider;
 * - 'provider': the provider bills every period on its own cycle and reports each by webhook —
 *   Stripe Billing (`invoice.paid`, `invoice.payment_failed`); the service only tells it about
 *   plan changes and cancellations.
 */
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import Stripe from 'stripe';
import type { Plan } from '../config';

export interface CheckoutRequest {
  paymentId: string;
  amountCents: number;
  currency: string;
  description: string;
  customerEmail: string;
  successUrl: string;
  cancelUrl: string;
}

export interface Checkout {
  providerPaymentId: string;
  /** Where to send the buyer; null when the provider has no page (local). */
  checkoutUrl: string | null;
}

/** The checkout of a plan's first period; with Stripe it also creates the Stripe subscription. */
export interface SubscriptionCheckoutRequest extends CheckoutRequest {
  subscriptionId: string;
  plan: Plan;
  periodSeconds: number;
}

/** The charge of one later period of a plan (providers whose `recurringCharges` is 'service'). */
export interface PeriodChargeRequest {
  paymentId: string;
  subscriptionId: string;
  period: number;
  amountCents: number;
  currency: string;
  description: string;
}

/** A plan change at the provider, from the next period on, without proration. */
export interface PlanChangeRequest {
  providerSubscriptionId: string;
  subscriptionId: string;
  /** The plan billed from the next period; a free plan (price 0) ends the provider's billing at the period end. */
  plan: Plan;
  periodSeconds: number;
}

/** A period billed by the provider itself (a Stripe invoice of a subscription). */
export interface ProviderInvoice {
  id: string;
  /** The subscription's first invoice: it pays period 0 (the checkout). */
  first: boolean;
  /** Start of the period the invoice bills; maps it to our period number. */
  periodStart: Date;
  amountCents: number;
  currency: string;
}

/** A verified provider event reduced to what our state machine needs. */
export interface ProviderEvent {
  eventId: string;
  type: string;
  outcome: 'succeeded' | 'failed' | 'refunded' | 'ignored';
  /** Our payment id, when the provider echoes our metadata. */
  paymentId?: string;
  providerPaymentId?: string;
  providerIntentId?: string;
  /** Our subscription id, when the provider echoes our metadata. */
  subscriptionId?: string;
  /** The provider's subscription the event belongs to (Stripe `sub_…`). */
  providerSubscriptionId?: string;
  /** Set for a period the provider billed on its own cycle. */
  invoice?: ProviderInvoice;
  reason?: string;
}

export interface PaymentProvider {
  readonly name: 'local' | 'stripe';
  /** Who starts the charge of each period after the first (see the top of this file). */
  readonly recurringCharges: 'service' | 'provider';
  createCheckout(request: CheckoutRequest): Promise<Checkout>;
  createSubscriptionCheckout(request: SubscriptionCheckoutRequest): Promise<Checkout>;
  /**
   * Starts the charge of one period; its outcome arrives by webhook. Idempotent by `paymentId`
   * (a retried activity must not charge twice). Only when `recurringCharges` is 'service'.
   */
  chargePeriod(request: PeriodChargeRequest): Promise<{ providerPaymentId: string }>;
  /** Bills `plan` from the next period on (no proration). A no-op where the service charges each period itself. */
  changePlan(request: PlanChangeRequest): Promise<void>;
  /** Stops the provider's billing at the end of the current period. A no-op where the service charges each period itself. */
  cancelAtPeriodEnd(request: { providerSubscriptionId: string }): Promise<void>;
  verifyWebhook(rawBody: Buffer, headers: Record<string, string | string[] | undefined>): ProviderEvent;
}

export class WebhookSignatureError extends Error {
  constructor(message = 'Invalid webhook signature') {
    super(message);
    this.name = 'WebhookSignatureError';
  }
}

const header = (headers: Record<string, string | string[] | undefined>, name: string) => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};

// ---------------------------------------------------------------- local (development and tests)

export const LOCAL_SIGNATURE_HEADER = 'x-local-signature';
/** Signed events older (or newer) than this are refused, like Stripe's default tolerance. */
export const LOCAL_TOLERANCE_SECONDS = 300;

export interface LocalEventBody {
  id: string;
  type: 'payment.succeeded' | 'payment.failed' | 'payment.refunded';
  data: { paymentId: string; providerPaymentId: string };
}

function localSignature(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
}

/** A local provider webhook request, signed like Stripe's: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`. */
export function signLocalEvent(secret: string, event: LocalEventBody, timestamp = Math.floor(Date.now() / 1000)): { body: string; signature: string } {
  const body = JSON.stringify(event);
  return { body, signature: `t=${timestamp},v1=${localSignature(secret, timestamp, body)}` };
}

export function localEvent(outcome: 'succeeded' | 'failed' | 'refunded', paymentId: string): LocalEventBody {
  return { id: `evt_local_${randomUUID()}`, type: `payment.${outcome}`, data: { paymentId, providerPaymentId: `local_${paymentId}` } };
}

export function createLocalProvider(options: { secret: string }): PaymentProvider {
  return {
    name: 'local',
    recurringCharges: 'service',
    createCheckout: (request) => Promise.resolve({ providerPaymentId: `local_${request.paymentId}`, checkoutUrl: null }),
    createSubscriptionCheckout: (request) => Promise.resolve({ providerPaymentId: `local_${request.paymentId}`, checkoutUrl: null }),
    // A local charge is only recorded: its signed webhook (a developer's or a test's) says how it went.
    chargePeriod: (request) => Promise.resolve({ providerPaymentId: `local_${request.paymentId}` }),
    // The service charges each period at the plan of that period: nothing to tell a local provider.
    changePlan: () => Promise.resolve(),
    cancelAtPeriodEnd: () => Promise.resolve(),
    verifyWebhook(rawBody, headers) {
      const signature = header(headers, LOCAL_SIGNATURE_HEADER) ?? '';
      const parts = Object.fromEntries(signature.split(',').map((p) => p.split('=', 2) as [string, string]));
      const timestamp = Number(parts.t);
      const given = Buffer.from(parts.v1 ?? '', 'hex');
      const body = rawBody.toString('utf8');
      const expected = Buffer.from(localSignature(options.secret, timestamp, body), 'hex');
      if (!Number.isInteger(timestamp) || given.length !== expected.length || !timingSafeEqual(given, expected)) throw new WebhookSignatureError();
      if (Math.abs(Date.now() / 1000 - timestamp) > LOCAL_TOLERANCE_SECONDS) throw new WebhookSignatureError('Webhook signature timestamp outside the tolerance');
      let event: LocalEventBody;
      try {
        event = JSON.parse(body) as LocalEventBody;
      } catch {
        throw new WebhookSignatureError('Webhook body is not JSON');
      }
      const outcome = event.type === 'payment.succeeded' ? 'succeeded' : event.type === 'payment.failed' ? 'failed' : event.type === 'payment.refunded' ? 'refunded' : 'ignored';
      return { eventId: String(event.id), type: String(event.type), outcome, paymentId: event.data?.paymentId, providerPaymentId: event.data?.providerPaymentId };
    },
  };
}

// ---------------------------------------------------------------- Stripe

const DAY_SECONDS = 86_400;

/**
 * A Stripe recurring interval for our period. Stripe bills in days, weeks, months or years, so a
 * period is a whole number of days (lib/config.ts refuses anything else with PAYMENT_PROVIDER=stripe).
 */
export function stripeInterval(periodSeconds: number): { interval: 'day'; interval_count: number } {
  const days = periodSeconds / DAY_SECONDS;
  if (!Number.isInteger(days) || days < 1 || days > 365) throw new Error(`Stripe bills whole days (1 to 365): a period of ${periodSeconds} s cannot be billed`);
  return { interval: 'day', interval_count: days };
}

/** Where a Stripe API other than Stripe's own is reached (stripe-mock, a test double): `STRIPE_API_URL`. */
function stripeHost(apiUrl: string | undefined): Pick<Stripe.StripeConfig, 'host' | 'port' | 'protocol'> {
  if (!apiUrl) return {};
  const url = new URL(apiUrl);
  return { host: url.hostname, port: url.port || (url.protocol === 'http:' ? 80 : 443), protocol: url.protocol === 'http:' ? 'http' : 'https' };
}

const idOf = (value: string | { id: string } | null | undefined) => (typeof value === 'string' ? value : value?.id);

/** The invoice of a subscription period, or undefined for an invoice that bills no period of ours. */
function subscriptionInvoice(invoice: Stripe.Invoice): { invoice: ProviderInvoice; providerSubscriptionId?: string; subscriptionId?: string } | undefined {
  // Only the first invoice and the cycle's invoices bill a whole period; an invoice made by a
  // change (proration: we never ask for one) or by hand is not a period of ours.
  if (invoice.billing_reason !== 'subscription_create' && invoice.billing_reason !== 'subscription_cycle') return undefined;
  const details = invoice.parent?.subscription_details;
  const line = invoice.lines?.data?.find((l) => l.parent?.type === 'subscription_item_details') ?? invoice.lines?.data?.[0];
  if (!details || !line) return undefined;
  return {
    invoice: { id: invoice.id, first: invoice.billing_reason === 'subscription_create', periodStart: new Date(line.period.start * 1000), amountCents: invoice.amount_due, currency: invoice.currency },
    providerSubscriptionId: idOf(details.subscription),
    subscriptionId: details.metadata?.subscriptionId,
  };
}

export function createStripeProvider(options: { secretKey: string; webhookSecret: string; apiUrl?: string; client?: Stripe }): PaymentProvider {
  const stripe = options.client ?? new Stripe(options.secretKey, { maxNetworkRetries: 2, timeout: 20_000, ...stripeHost(options.apiUrl) });

  /**
   * The Stripe Price of a plan: one per plan, price and period, found by its lookup key and
   * created on first use, so every subscription to a plan shares it (and the dashboard shows plans).
   */
  async function planPrice(plan: Plan, periodSeconds: number): Promise<string> {
    const lookupKey = `plan:${plan.id}:${plan.priceCents}${plan.currency}:${periodSeconds}s`;
    const found = await stripe.prices.list({ lookup_keys: [lookupKey], active: true, limit: 1 });
    if (found.data[0]) return found.data[0].id;
    const price = await stripe.prices.create({
      lookup_key: lookupKey,
      // Two replicas creating it at once: the later one takes the key over; both prices are equal.
      transfer_lookup_key: true,
      currency: plan.currency,
      unit_amount: plan.priceCents,
      recurring: stripeInterval(periodSeconds),
      product_data: { name: `${plan.name} plan`, metadata: { planId: plan.id } },
      metadata: { planId: plan.id },
    });
    return price.id;
  }

  return {
    name: 'stripe',
    recurringCharges: 'provider',
    async createCheckout(request) {
      const session = await stripe.checkout.sessions.create({
        mode: 'payment',
        line_items: [{ quantity: 1, price_data: { currency: request.currency, unit_amount: request.amountCents, product_data: { name: request.description } } }],
        customer_email: request.customerEmail,
        client_reference_id: request.paymentId,
        metadata: { paymentId: request.paymentId },
        payment_intent_data: { metadata: { paymentId: request.paymentId } },
        success_url: request.successUrl,
        cancel_url: request.cancelUrl,
      });
      return { providerPaymentId: session.id, checkoutUrl: session.url };
    },
    async createSubscriptionCheckout(request) {
      stripeInterval(request.periodSeconds);
      const price = await planPrice(request.plan, request.periodSeconds);
      const session = await stripe.checkout.sessions.create({
        mode: 'subscription',
        line_items: [{ quantity: 1, price }],
        customer_email: request.customerEmail,
        client_reference_id: request.paymentId,
        metadata: { paymentId: request.paymentId, subscriptionId: request.subscriptionId },
        // Copied by Stripe onto every invoice of the subscription (parent.subscription_details.metadata).
        subscription_data: { metadata: { subscriptionId: request.subscriptionId } },
        success_url: request.successUrl,
        cancel_url: request.cancelUrl,
      });
      return { providerPaymentId: session.id, checkoutUrl: session.url };
    },
    chargePeriod() {
      return Promise.reject(new Error('Stripe Billing charges each period itself (invoice.paid / invoice.payment_failed)'));
    },
    async changePlan(request) {
      if (request.plan.priceCents === 0) {
        // Nothing to bill on a free plan: Stripe's subscription ends with the paid period.
        await stripe.subscriptions.update(request.providerSubscriptionId, { cancel_at_period_end: true });
        return;
      }
      const [price, current] = await Promise.all([planPrice(request.plan, request.periodSeconds), stripe.subscriptions.retrieve(request.providerSubscriptionId)]);
      const item = current.items.data[0];
      if (!item) throw new Error(`Stripe subscription ${request.providerSubscriptionId} has no item`);
      await stripe.subscriptions.update(request.providerSubscriptionId, {
        items: [{ id: item.id, price }],
        // The new price is billed from the next invoice (next period); nothing is prorated now.
        proration_behavior: 'none',
        cancel_at_period_end: false,
      });
    },
    async cancelAtPeriodEnd(request) {
      await stripe.subscriptions.update(request.providerSubscriptionId, { cancel_at_period_end: true });
    },
    verifyWebhook(rawBody, headers) {
      const signature = header(headers, 'stripe-signature');
      if (!signature) throw new WebhookSignatureError('Missing Stripe-Signature header');
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(rawBody, signature, options.webhookSecret);
      } catch {
        throw new WebhookSignatureError();
      }
      const base = { eventId: event.id, type: event.type };
      switch (event.type) {
        case 'checkout.session.completed':
        case 'checkout.session.async_payment_succeeded': {
          const session = event.data.object;
          const intent = idOf(session.payment_intent);
          // A completed session may still be unpaid (delayed methods): its async_payment_* event decides.
          const paid = session.payment_status === 'paid' || session.payment_status === 'no_payment_required';
          return {
            ...base,
            outcome: paid ? 'succeeded' : 'ignored',
            paymentId: session.metadata?.paymentId,
            providerPaymentId: session.id,
            providerIntentId: intent,
            subscriptionId: session.metadata?.subscriptionId,
            providerSubscriptionId: idOf(session.subscription),
          };
        }
        case 'checkout.session.async_payment_failed':
        case 'checkout.session.expired': {
          const session = event.data.object;
          return { ...base, outcome: 'failed', paymentId: session.metadata?.paymentId, providerPaymentId: session.id, reason: event.type };
        }
        case 'payment_intent.succeeded':
          return { ...base, outcome: 'succeeded', paymentId: event.data.object.metadata?.paymentId, providerIntentId: event.data.object.id };
        case 'payment_intent.payment_failed':
          return { ...base, outcome: 'failed', paymentId: event.data.object.metadata?.paymentId, providerIntentId: event.data.object.id, reason: event.data.object.last_payment_error?.message };
        case 'charge.refunded': {
          const charge = event.data.object;
          const intent = idOf(charge.payment_intent);
          return { ...base, outcome: charge.refunded ? 'refunded' : 'ignored', paymentId: charge.metadata?.paymentId, providerIntentId: intent };
        }
        case 'invoice.paid':
        case 'invoice.payment_failed': {
          const period = subscriptionInvoice(event.data.object);
          if (!period) return { ...base, outcome: 'ignored' };
          const failed = event.type === 'invoice.payment_failed';
          return {
            ...base,
            outcome: failed ? 'failed' : 'succeeded',
            providerPaymentId: period.invoice.id,
            ...period,
            reason: failed ? `invoice.payment_failed (attempt ${event.data.object.attempt_count})` : undefined,
          };
        }
        default:
          return { ...base, outcome: 'ignored' };
      }
    },
  };
}
