/**
 * A local receiver of event webhooks (docs/webhooks.md) that verifies each delivery's
 * `x-signature` with the Stripe SDK's own helper (`stripe.webhooks.constructEvent`), as a user's
 * receiver would. Each path has its own secret and answer plan; every request is recorded,
 * the failed ones too.
 */
import http from 'node:http';
import Stripe from 'stripe';
import { listenOnLoopback } from '../../platform/free-port';
import type { Json } from './http';

export interface ReceivedDelivery {
  path: string;
  /** The status this receiver answered. */
  answered: number;
  body: string;
  event: Json;
  signature: string;
  /** constructEvent accepted the signature with the path's secret (false: no secret set, or refused). */
  verified: boolean;
  headers: http.IncomingHttpHeaders;
}

export interface EventReceiver {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  received: ReceivedDelivery[];
  /** The secret deliveries to `path` are verified with. */
  setSecret(path: string, secret: string): void;
  /** Answer `status` to the next `count` requests on `path` (then 200). */
  failNext(path: string, count: number, status: number): void;
  close(): Promise<void>;
}

const stripe = new Stripe('sk_test_signature_checks_only');

export async function startEventReceiver(): Promise<EventReceiver> {
  const received: ReceivedDelivery[] = [];
  const secrets = new Map<string, string>();
  const failures = new Map<string, { count: number; status: number }>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0]!;
      const body = Buffer.concat(chunks).toString('utf8');
      const signature = String(req.headers['x-signature'] ?? '');
      let verified = false;
      const secret = secrets.get(path);
      if (secret) {
        try {
          stripe.webhooks.constructEvent(body, signature, secret);
          verified = true;
        } catch {
          verified = false;
        }
      }
      const plan = failures.get(path);
      const answered = plan && plan.count > 0 ? plan.status : 200;
      if (plan && plan.count > 0) plan.count -= 1;
      let event: Json = {};
      try {
        event = JSON.parse(body) as Json;
      } catch {
        event = { unparsable: body };
      }
      received.push({ path, answered, body, event, signature, verified, headers: req.headers });
      res.writeHead(answered, { 'content-type': 'application/json' }).end(answered === 200 ? '{"ok":true}' : '{"ok":false}');
    });
  });
  const port = await listenOnLoopback(server);
  return {
    origin: `http://127.0.0.1:${port}`,
    received,
    setSecret: (path, secret) => secrets.set(path, secret),
    failNext: (path, count, status) => failures.set(path, { count, status }),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
