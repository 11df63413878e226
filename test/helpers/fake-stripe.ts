/**
 * A stand-in for the Stripe API on loopback (the service reaches it through STRIPE_API_URL, as it
 * would stripe-mock): it answers the few calls our Stripe provider makes (Prices, Checkout
 * Sessions, Subscriptions) with objects of Stripe's shape and records every call, so a test can
 * check what the service asked Stripe for. Not a model of Stripe's billing: the test plays Stripe's
 * side by sending signed webhooks.
 */
import http from 'node:http';
import { listenOnLoopback } from '../../platform/free-port';

export interface StripeCall {
  method: string;
  path: string;
  /** Form or query parameters as Stripe's SDK encodes them (`line_items[0][price]` → value). */
  params: Record<string, string>;
}

export interface FakeStripe {
  url: string;
  calls: StripeCall[];
  /** Calls on a path (exact), in order. */
  callsTo(method: string, path: string): StripeCall[];
  /** Subscriptions whose updates are refused (HTTP 400, as Stripe refuses a bad request). */
  refuseSubscription(id: string): void;
  close(): Promise<void>;
}

export async function startFakeStripe(): Promise<FakeStripe> {
  const calls: StripeCall[] = [];
  const prices = new Map<string, Record<string, unknown>>();
  const refused = new Set<string>();
  let counter = 0;
  const nextId = (prefix: string) => `${prefix}_fake${++counter}`;

  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://stripe.local');
      const params = Object.fromEntries(new URLSearchParams(req.method === 'GET' ? url.search : body));
      const call = { method: req.method ?? 'GET', path: url.pathname, params };
      calls.push(call);
      const send = (status: number, value: unknown) => res.writeHead(status, { 'content-type': 'application/json', 'request-id': nextId('req') }).end(JSON.stringify(value));
      const subscription = /^\/v1\/subscriptions\/([^/]+)$/.exec(url.pathname)?.[1];

      if (call.method === 'GET' && url.pathname === '/v1/prices') {
        const keys = Object.entries(params).filter(([k]) => k.startsWith('lookup_keys')).map(([, v]) => v);
        const data = [...prices.values()].filter((p) => keys.includes(p.lookup_key as string));
        return send(200, { object: 'list', url: '/v1/prices', has_more: false, data });
      }
      if (call.method === 'POST' && url.pathname === '/v1/prices') {
        const price = {
          id: nextId('price'),
          object: 'price',
          active: true,
          lookup_key: params.lookup_key,
          currency: params.currency,
          unit_amount: Number(params.unit_amount),
          recurring: { interval: params['recurring[interval]'], interval_count: Number(params['recurring[interval_count]']) },
          product: nextId('prod'),
        };
        prices.set(price.id, price);
        return send(200, price);
      }
      if (call.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
        const id = nextId('cs_test');
        return send(200, { id, object: 'checkout.session', mode: params.mode, url: `https://checkout.stripe.test/c/${id}`, payment_status: 'unpaid', status: 'open' });
      }
      if (subscription && refused.has(subscription)) {
        return send(400, { error: { type: 'invalid_request_error', message: `No such subscription: '${subscription}'`, code: 'resource_missing' } });
      }
      if (call.method === 'GET' && subscription) {
        return send(200, { id: subscription, object: 'subscription', status: 'active', items: { object: 'list', has_more: false, data: [{ id: `si_${subscription}`, object: 'subscription_item' }] } });
      }
      if (call.method === 'POST' && subscription) {
        return send(200, { id: subscription, object: 'subscription', status: 'active', cancel_at_period_end: params.cancel_at_period_end === 'true' });
      }
      return send(404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${call.method}: ${url.pathname})` } });
    });
  });
  const port = await listenOnLoopback(server);
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    callsTo: (method, path) => calls.filter((c) => c.method === method && c.path === path),
    refuseSubscription: (id) => refused.add(id),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
