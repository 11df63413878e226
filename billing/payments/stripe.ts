/**
 * The Stripe provider (billing/payments/provider.ts has the interface): Checkout for packs and for a
 * plan's first period, Stripe Billing for the later periods (docs/billing.md, recurring billing).
 * Only the API loads it: a worker needs no Stripe SDK (it only records the periods Stripe bills).
 */
import Stripe from 'stripe';
import type { Plan } from '../../platform/config';
import { type PaymentProvider, type ProviderInvoice, WebhookSignatureError, header, stripePeriodCharger } from './provider';

const DAY_SECONDS = 86_400;

/**
 * A Stripe recurring interval for our period. Stripe bills in days, weeks, months or years, so a
 * period is a whole number of days (platform/config.ts refuses anything else with PAYMENT_PROVIDER=stripe).
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
    ...stripePeriodCharger,
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
