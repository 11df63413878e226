/**
 * Payment providers behind one interface. A provider creates a checkout for a payment and turns
 * a webhook request (raw body + headers) into a verified event; an unverifiable request throws
 * `WebhookSignatureError` (→ 400, nothing changed). Credit is granted only from verified events
 * (lib/payments/service.ts), never from the buyer's return to a success URL.
 */
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import Stripe from 'stripe';

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

/** A verified provider event reduced to what our state machine needs. */
export interface ProviderEvent {
  eventId: string;
  type: string;
  outcome: 'succeeded' | 'failed' | 'refunded' | 'ignored';
  /** Our payment id, when the provider echoes our metadata. */
  paymentId?: string;
  providerPaymentId?: string;
  providerIntentId?: string;
  reason?: string;
}

export interface PaymentProvider {
  readonly name: 'local' | 'stripe';
  createCheckout(request: CheckoutRequest): Promise<Checkout>;
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
    createCheckout: (request) => Promise.resolve({ providerPaymentId: `local_${request.paymentId}`, checkoutUrl: null }),
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

export function createStripeProvider(options: { secretKey: string; webhookSecret: string; client?: Stripe }): PaymentProvider {
  const stripe = options.client ?? new Stripe(options.secretKey, { maxNetworkRetries: 2, timeout: 20_000 });
  return {
    name: 'stripe',
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
          const intent = typeof session.payment_intent === 'string' ? session.payment_intent : session.payment_intent?.id;
          // A completed session may still be unpaid (delayed methods): its async_payment_* event decides.
          const paid = session.payment_status === 'paid' || session.payment_status === 'no_payment_required';
          return { ...base, outcome: paid ? 'succeeded' : 'ignored', paymentId: session.metadata?.paymentId, providerPaymentId: session.id, providerIntentId: intent };
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
          const intent = typeof charge.payment_intent === 'string' ? charge.payment_intent : charge.payment_intent?.id;
          return { ...base, outcome: charge.refunded ? 'refunded' : 'ignored', paymentId: charge.metadata?.paymentId, providerIntentId: intent };
        }
        default:
          return { ...base, outcome: 'ignored' };
      }
    },
  };
}
