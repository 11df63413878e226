/**
 * Payment providers behind one interface. A provider creates a checkout for a payment (a pack, or
 * the first period of a plan), takes part in the recurring billing of later periods, and turns a
 * webhook request (raw body + headers) into a verified event; an unverifiable request throws
 * `WebhookSignatureError` (→ 400, nothing changed). Credit is granted only from verified events
 * (billing/payments/service.ts), never from the buyer's return to a success URL.
 *
 * Recurring billing (docs/billing.md) comes in two shapes, told apart by `recurringCharges`:
 * - 'service': the service starts each period's charge (`chargePeriod`, called by the period's
 *   refill workflow) and the provider confirms it by webhook — the local provider;
 * - 'provider': the provider bills every period on its own cycle and reports each by webhook —
 *   Stripe Billing (`invoice.paid`, `invoice.payment_failed`); the service only tells it about
 *   plan changes and cancellations.
 */
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Plan } from '../../platform/config';

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

/**
 * What a worker needs of the configured provider for the charges of periods, without loading a
 * provider's SDK (the Stripe SDK is the API's business: billing/payments/stripe.ts).
 */
export type PeriodCharger = Pick<PaymentProvider, 'name' | 'recurringCharges' | 'chargePeriod'>;

// A local charge is only recorded: its signed webhook (a developer's or a test's) says how it went.
const localPeriodCharger: PeriodCharger = {
  name: 'local',
  recurringCharges: 'service',
  chargePeriod: (request) => Promise.resolve({ providerPaymentId: `local_${request.paymentId}` }),
};

export const stripePeriodCharger: PeriodCharger = {
  name: 'stripe',
  recurringCharges: 'provider',
  chargePeriod: () => Promise.reject(new Error('Stripe Billing charges each period itself (invoice.paid / invoice.payment_failed)')),
};

export function periodChargerFor(provider: 'none' | 'local' | 'stripe'): PeriodCharger | undefined {
  return provider === 'local' ? localPeriodCharger : provider === 'stripe' ? stripePeriodCharger : undefined;
}

export class WebhookSignatureError extends Error {
  constructor(message = 'Invalid webhook signature') {
    super(message);
    this.name = 'WebhookSignatureError';
  }
}

export const header = (headers: Record<string, string | string[] | undefined>, name: string) => {
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
    ...localPeriodCharger,
    createCheckout: (request) => Promise.resolve({ providerPaymentId: `local_${request.paymentId}`, checkoutUrl: null }),
    createSubscriptionCheckout: (request) => Promise.resolve({ providerPaymentId: `local_${request.paymentId}`, checkoutUrl: null }),
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
