/**
 * http mode: the Chrome-impersonating path (wreq-js through the egress proxy) against Node's
 * undici path, in the same run, interleaved round by round (docs/benchmarks.md). Two
 * impersonating arms: `impersonate` (as shipped: the profile's TLS, Chrome's HTTP/2 section) and
 * `profile-h2` (wreq-js's profile's own HTTP/2 section, as before 2026-11-28).
 *
 *   node --import tsx bench/http-impersonate.ts [--seconds 4] [--rounds 3] [--paragraphs 500]
 *
 * The target is a local HTTPS server (HTTP/2 and HTTP/1.1; a page of N paragraphs, 500 ≈ 20 KB;
 * 1 leaves mostly the transport's cost) in a child process, so
 * the CPU measured (getrusage of this process: every thread, wreq-js's Rust ones included) is the
 * engine's alone. Bounded loops on 127.0.0.1 only.
 */
import { fork } from 'node:child_process';
import { defaultChromiumPath } from '../platform/config';
import { createHttpEngine, type HttpEngine } from '../scrape/http/engine';

const args = process.argv.slice(2);
const arg = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const SECONDS = arg('seconds', 4);
const ROUNDS = arg('rounds', 3);
const CONCURRENCY = [1, 8, 32];
const PARAGRAPHS = arg('paragraphs', 500);

if (process.env.BENCH_CHILD === 'server') {
  void (async () => {
    const http2 = await import('node:http2');
    const { execFileSync } = await import('node:child_process');
    const fs = await import('node:fs');
    const os = await import('node:os');
    const path = await import('node:path');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-tls-'));
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', `${dir}/k.pem`, '-out', `${dir}/c.pem`, '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' });
    const page = `<!doctype html><html><head><title>Bench</title></head><body>${'<p class="x">Some text of a page.</p>'.repeat(Number(process.env.BENCH_PARAGRAPHS))}</body></html>`;
    const server = http2.createSecureServer({ key: fs.readFileSync(`${dir}/k.pem`), cert: fs.readFileSync(`${dir}/c.pem`), allowHTTP1: true }, (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(page);
    });
    server.listen(0, '127.0.0.1', () => process.send!({ port: (server.address() as { port: number }).port }));
    process.on('disconnect', () => process.exit(0));
  })();
} else {
  void main();
}

async function run(engine: HttpEngine, url: string, concurrency: number): Promise<{ rps: number; cpuMsPerScrape: number; p50: number }> {
  const deadline = performance.now() + SECONDS * 1000;
  const latencies: number[] = [];
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) {
        const s = performance.now();
        await engine.scrape({ url, skip_tls_verification: true, formats: ['html'] });
        latencies.push(performance.now() - s);
      }
    }),
  );
  const elapsed = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  latencies.sort((a, b) => a - b);
  return { rps: latencies.length / elapsed, cpuMsPerScrape: (cpu.user + cpu.system) / 1000 / latencies.length, p50: latencies[Math.floor(latencies.length / 2)]! };
}

async function main() {
  const child = fork(process.argv[1]!, [], { env: { ...process.env, BENCH_CHILD: 'server', BENCH_PARAGRAPHS: String(PARAGRAPHS) }, execArgv: ['--import', 'tsx'] });
  const { port } = await new Promise<{ port: number }>((resolve) => child.once('message', (m) => resolve(m as { port: number })));
  const url = `https://127.0.0.1:${port}/page`;
  const engines = {
    undici: createHttpEngine({ allowPrivateTargets: true }),
    impersonate: createHttpEngine({ allowPrivateTargets: true, impersonate: { chromiumPath: process.env.CHROMIUM_PATH ?? defaultChromiumPath() } }),
    'profile-h2': createHttpEngine({ allowPrivateTargets: true, impersonate: { chromiumPath: process.env.CHROMIUM_PATH ?? defaultChromiumPath(), http2: 'profile' } }),
  };
  const ARMS = ['undici', 'impersonate', 'profile-h2'] as const;
  for (const e of Object.values(engines)) for (let i = 0; i < 20; i++) await e.scrape({ url, skip_tls_verification: true }); // warm-up
  const results: Record<string, Record<number, Array<{ rps: number; cpuMsPerScrape: number; p50: number }>>> = { undici: {}, impersonate: {}, 'profile-h2': {} };
  for (let round = 0; round < ROUNDS; round++) {
    for (const c of CONCURRENCY) {
      // Rotate which path goes first in each round.
      const shift = (round + c) % ARMS.length;
      const order = [...ARMS.slice(shift), ...ARMS.slice(0, shift)];
      for (const name of order) ((results[name]![c] ??= [])).push(await run(engines[name], url, c));
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  console.log('| c | path | req/s | CPU ms per scrape | p50 ms |');
  console.log('|---|---|---|---|---|');
  for (const c of CONCURRENCY) {
    for (const name of ARMS) {
      const rs = results[name]![c]!;
      console.log(`| ${c} | ${name} | ${median(rs.map((r) => r.rps)).toFixed(0)} | ${median(rs.map((r) => r.cpuMsPerScrape)).toFixed(2)} | ${median(rs.map((r) => r.p50)).toFixed(1)} |`);
    }
    const ratio = (a: string, b: string, label: string) => {
      const x = results[a]![c]!;
      const y = results[b]![c]!;
      console.log(`| ${c} | ${label} | ${(median(x.map((r) => r.rps)) / median(y.map((r) => r.rps))).toFixed(2)}x | ${(median(x.map((r) => r.cpuMsPerScrape)) / median(y.map((r) => r.cpuMsPerScrape))).toFixed(2)}x | |`);
    };
    ratio('impersonate', 'undici', 'impersonate / undici');
    ratio('impersonate', 'profile-h2', 'impersonate / profile-h2');
  }
  await Promise.all(Object.values(engines).map((e) => e.close()));
  child.kill();
}
