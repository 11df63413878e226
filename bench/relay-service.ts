/**
 * What http mode's transport costs a whole scrape (issue 35): the same https scrape through the
 * real service (API, http worker, Temporal dev server, PostgreSQL) with each of http mode's three
 * transports, paired in one run:
 *   - `undici`:      HTTP_IMPERSONATE=false (Node's TLS, the path before issue 35);
 *   - `wreq`:        HTTP_IMPERSONATE=true, HTTP_TLS_RELAY=false (wreq-js alone);
 *   - `relay`:       HTTP_IMPERSONATE=true, HTTP_TLS_RELAY=true (the default: wreq-js through the TLS relay).
 * bench/http-impersonate.ts measures the transport alone in one process; this one measures what a
 * user's scrape costs the service with it: CPU ms per scrape by process (a standalone scrape runs in
 * the API's in-process worker, so the relay, its child, counts in the API's), p50 and req/s at c=1, 8 and 32. The target is an https server in this
 * process (node:http2 with HTTP/1.1 allowed, a certificate made here and trusted through
 * NODE_EXTRA_CA_CERTS), a page of 20 links; each scrape opens its own connection (a full
 * handshake), as every http-mode scrape does. Each round starts a fresh API and worker per
 * transport, in a rotating order; medians over RELAY_ROUNDS (default 2) rounds.
 *   node --import tsx bench/relay-service.ts
 * RELAY_REQUESTS (default 150; 3x at c=8 and c=32). Everything on 127.0.0.1; every loop bounded.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http2 from 'node:http2';
import type net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { selfSignedCertificate } from '../test/fixtures/tls-fingerprint';
import { createAccount, setBalance } from '../test/helpers/accounts';
import { startStack } from '../test/helpers/stack';
import { type Role, SERVICE_ROLES, cpuByRole } from './process-cpu';
import { drive, runBench, startBenchServices } from './services';

const requests = Number(process.env.RELAY_REQUESTS ?? '150');
const rounds = Number(process.env.RELAY_ROUNDS ?? '2');
const ROLES_SHOWN: Role[] = SERVICE_ROLES.filter((r) => r !== 'chromium (worker)');
const LEVELS = [
  [1, requests],
  [8, requests * 3],
  [32, requests * 3],
] as const;

const TRANSPORTS = {
  undici: { HTTP_IMPERSONATE: 'false' },
  wreq: { HTTP_IMPERSONATE: 'true', HTTP_TLS_RELAY: 'false' },
  relay: { HTTP_IMPERSONATE: 'true', HTTP_TLS_RELAY: 'true' },
} as const;
type Transport = keyof typeof TRANSPORTS;

interface Phase {
  p50: number;
  reqPerSecond: number;
  cpu: Record<string, number>;
  all: number;
}

const PAGE = `<!doctype html><html><head><title>Links</title></head><body><h1>Links</h1>${Array.from({ length: 20 }, (_, i) => `<p><a class="link" href="/page/${i}">Page ${i}</a> and some text around it.</p>`).join('')}</body></html>`;

async function startHttpsTarget(): Promise<{ url: string; caFile: string; close(): Promise<void> }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'relay-bench-'));
  const { keyFile, certFile: caFile } = selfSignedCertificate(dir);
  const server = http2.createSecureServer({ key: readFileSync(keyFile), cert: readFileSync(caFile), allowHTTP1: true }, (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(PAGE);
  });
  const sockets = new Set<net.Socket>();
  server.on('secureConnection', (socket: net.Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    caFile,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

async function measure(transport: Transport, targetUrl: string, caFile: string): Promise<Phase[]> {
  const stack = await startStack({ env: { WORKER_QUEUES: 'http', NODE_EXTRA_CA_CERTS: caFile, ...TRANSPORTS[transport] } });
  try {
    const account = await createAccount(stack.baseUrl);
    await setBalance(stack.databaseUrl, account.userId, 10_000_000);
    const body = JSON.stringify({ url: `${targetUrl}/links`, mode: 'http', selectors: ['h1', { selector: 'a.link', attribute: 'href', all: true }], options: { retry_count: 0 } });
    const scrape = async () => {
      const res = await fetch(`${stack.baseUrl}/webhook/unblocker`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': account.apiKey }, body });
      const text = await res.text();
      if (res.status !== 200 || !text.includes('/page/19')) throw new Error(`${transport}: the API answered ${res.status}: ${text.slice(0, 500)}`);
    };
    await drive(40, 1, scrape); // warm-up: the lane, the JIT, the relay's start
    await drive(64, 32, scrape);
    const phases: Phase[] = [];
    for (const [concurrency, total] of LEVELS) {
      await drive(Math.max(concurrency * 2, 10), concurrency, scrape);
      const cpu0 = cpuByRole();
      const { latencies, seconds } = await drive(total, concurrency, scrape);
      const cpu1 = cpuByRole();
      const cpu = Object.fromEntries(ROLES_SHOWN.map((r) => [r, ((cpu1.get(r)! - cpu0.get(r)!) * 1000) / total]));
      phases.push({ p50: median(latencies), reqPerSecond: total / seconds, cpu, all: Object.values(cpu).reduce((s, v) => s + v, 0) });
    }
    return phases;
  } finally {
    await stack.stop();
  }
}

async function main(): Promise<void> {
  console.log(`load average at start: ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  const services = await startBenchServices({ name: 'relay' });
  const target = await startHttpsTarget();
  const transports = Object.keys(TRANSPORTS) as Transport[];
  const results = new Map<Transport, Phase[][]>(transports.map((t) => [t, []]));
  try {
    for (let round = 0; round < rounds; round += 1) {
      const order = transports.map((_, i) => transports[(i + round) % transports.length]!);
      for (const transport of order) {
        const phases = await measure(transport, target.url, target.caFile);
        results.get(transport)!.push(phases);
        const line = phases.map((p, i) => `c=${LEVELS[i]![0]} p50 ${p.p50.toFixed(1)} ms ${p.reqPerSecond.toFixed(1)} req/s CPU ${p.all.toFixed(2)} ms (api ${p.cpu.api!.toFixed(2)})`).join('; ');
        console.log(`round ${round + 1} ${transport}: ${line}`);
      }
    }
  } finally {
    await target.close();
    await services.stop();
  }
  console.log(`\nmedians over ${rounds} rounds (CPU ms per scrape, all service processes; the API's includes the relay: the scrape runs in its in-process worker):`);
  console.log('| c | transport | p50 ms | req/s | CPU ms/scrape: ' + ROLES_SHOWN.join(' / ') + ' | all | all / undici | req/s / undici |');
  LEVELS.forEach(([concurrency], level) => {
    const of = (t: Transport) => results.get(t)!.map((r) => r[level]!);
    const baseAll = median(of('undici').map((p) => p.all));
    const baseRate = median(of('undici').map((p) => p.reqPerSecond));
    for (const transport of transports) {
      const phases = of(transport);
      const all = median(phases.map((p) => p.all));
      const rate = median(phases.map((p) => p.reqPerSecond));
      const roles = ROLES_SHOWN.map((r) => median(phases.map((p) => p.cpu[r]!)).toFixed(2)).join(' / ');
      console.log(`| ${concurrency} | ${transport} | ${median(phases.map((p) => p.p50)).toFixed(1)} | ${rate.toFixed(1)} | ${roles} | ${all.toFixed(2)} | ${(all / baseAll).toFixed(2)}x | ${(rate / baseRate).toFixed(2)}x |`);
    }
  });
  console.log(`load average at end: ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
}

runBench(main);
