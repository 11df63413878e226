/**
 * Flow test helpers: a local webhook receiver, the 4-node flow of issue 5
 * (scrape a link list → foreach over the links → delay → webhook) and a run poller.
 */
import http from 'node:http';
import { listenOnLoopback } from '../../platform/free-port';
import { type Answer, type Json, call } from './http';

export interface WebhookReceiver {
  url: string;
  /** Every JSON body received, in order. */
  received: Json[];
  /** Answer this status to the next N posts (then 200). */
  failNext(count: number, status: number): void;
  close(): Promise<void>;
}

/** A loopback HTTP server that records the JSON bodies POSTed to it. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: Json[] = [];
  let failures: { count: number; status: number } = { count: 0, status: 200 };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (failures.count > 0) {
        failures.count -= 1;
        res.writeHead(failures.status).end('no');
        return;
      }
      try {
        received.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Json);
      } catch {
        received.push({ unparsable: Buffer.concat(chunks).toString('utf8') });
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  const port = await listenOnLoopback(server);
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    failNext: (count, status) => {
      failures = { count, status };
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * scrape `/links?n=<links>` (every link's href) → foreach over them (each page's h1) → delay →
 * webhook. `pageDelayMs` makes each linked page slow, so a test can interrupt the foreach.
 */
export function fourNodeFlow(fixtureUrl: string, webhookUrl: string, options: { links?: number; pageDelayMs?: number; delayMs?: number; concurrency?: number } = {}) {
  const query = `n=${options.links ?? 3}${options.pageDelayMs ? `&delay=${options.pageDelayMs}` : ''}`;
  return {
    name: 'Links and their titles',
    description: 'issue 5 flow',
    nodes: [
      { id: 'list', type: 'scrape', config: { url: `${fixtureUrl}/links?${query}`, selectors: [{ name: 'links', selector: 'a.link', attribute: 'href', all: true }], options: { retry_count: 1 } } },
      {
        id: 'pages',
        type: 'foreach',
        needs: ['list'],
        config: {
          from: '{{ nodes.list.data.0.results }}',
          concurrency: options.concurrency ?? 2,
          request: { url: '{{ item.text }}', selectors: [{ name: 'title', selector: 'h1' }], options: { retry_count: 1 } },
        },
      },
      { id: 'pause', type: 'delay', needs: ['pages'], config: { ms: options.delayMs ?? 300 } },
      { id: 'notify', type: 'webhook', needs: ['pause'], config: { url: webhookUrl } },
    ],
  };
}

const FINISHED = new Set(['succeeded', 'failed', 'cancelled']);

/** Polls GET /flows/:id/runs/:runId until `until` holds (default: finished), at most `timeoutMs`. */
export async function waitForFlowRun(
  baseUrl: string,
  auth: Record<string, string>,
  flowId: string,
  runId: string,
  until: (run: Json) => boolean = (run) => FINISHED.has(run.status as string),
  timeoutMs = 90_000,
): Promise<Json> {
  const deadline = Date.now() + timeoutMs;
  let last: Answer | undefined;
  while (Date.now() < deadline) {
    try {
      last = await call(baseUrl, 'GET', `/flows/${flowId}/runs/${runId}`, auth);
      if (last.status === 200 && until(last.body)) return last.body;
    } catch {
      // The API may be restarting (durability tests): try again.
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`flow run ${runId} did not reach the expected state within ${timeoutMs} ms; last: ${JSON.stringify(last?.body).slice(0, 2000)}`);
}

/** A node of a run body by id. */
export function nodeOf(run: Json, id: string): Json {
  const node = (run.nodes as Json[]).find((n) => n.id === id);
  if (!node) throw new Error(`no node ${id} in ${JSON.stringify(run).slice(0, 500)}`);
  return node;
}
