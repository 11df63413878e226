/**
 * http mode: the Chrome-impersonating path (wreq-js through the egress proxy) against Node's
 * undici path, in the same run, interleaved round by round (docs/benchmarks.md). Two
 * impersonating arms: `relay` (as shipped: wreq-js through the TLS relay, deploy/tls-relay, which
 * sends Chromium's ClientHello) and `impersonate` (wreq-js's own ClientHello, without the relay).
 * The relay's CPU (its own process, read from /proc) is added to the engine's.
 *
 *   node --import tsx bench/http-impersonate.ts [--seconds 4] [--rounds 3] [--paragraphs 500]
 *
 * The target is a local HTTPS server (HTTP/2 and HTTP/1.1; a page of N paragraphs, 500 ≈ 20 KB;
 * 1 leaves mostly the transport's cost) in a child process, so
 * the CPU measured (getrusage of this process: every thread, wreq-js's Rust ones included) is the
 * engine's alone. Bounded loops on 127.0.0.1 only.
 */
import { fork } from 'node:child_process';
import fs from 'node:fs';
import { defaultChromiumPath, parseConfig } from '../platform/config';
import { createHttpEngine, type HttpEngine } from '../scrape/http/engine';
import { tlsRelayBinaryPath } from '../scrape/http/tls-relay';

/** CPU ms of this process's TLS relay children (/proc stat utime + stime, clock ticks of 10 ms). */
function relayCpuMs(): number {
  let ticks = 0;
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (comm.startsWith('tls-relay') && Number(fields[1]) === process.pid) ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // gone meanwhile
    }
  }
  return ticks * 10;
}

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

interface Run {
  rps: number;
  /** This process's CPU plus the relay process's, per scrape. */
  cpuMsPerScrape: number;
  relayMsPerScrape: number;
  p50: number;
}

async function run(engine: HttpEngine, url: string, concurrency: number): Promise<Run> {
  const deadline = performance.now() + SECONDS * 1000;
  const latencies: number[] = [];
  const cpu0 = process.cpuUsage();
  const relay0 = relayCpuMs();
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
  const relayMs = relayCpuMs() - relay0;
  latencies.sort((a, b) => a - b);
  return { rps: latencies.length / elapsed, cpuMsPerScrape: ((cpu.user + cpu.system) / 1000 + relayMs) / latencies.length, relayMsPerScrape: relayMs / latencies.length, p50: latencies[Math.floor(latencies.length / 2)]! };
}

async function main() {
  const child = fork(process.argv[1]!, [], { env: { ...process.env, BENCH_CHILD: 'server', BENCH_PARAGRAPHS: String(PARAGRAPHS) }, execArgv: ['--import', 'tsx'] });
  const { port } = await new Promise<{ port: number }>((resolve) => child.once('message', (m) => resolve(m as { port: number })));
  const url = `https://127.0.0.1:${port}/page`;
  const chromiumPath = process.env.CHROMIUM_PATH ?? defaultChromiumPath();
  const engines = {
    undici: createHttpEngine({ allowPrivateTargets: true }),
    impersonate: createHttpEngine({ allowPrivateTargets: true, impersonate: { chromiumPath } }),
    relay: createHttpEngine({ allowPrivateTargets: true, impersonate: { chromiumPath, tlsRelayBinary: tlsRelayBinaryPath(parseConfig(process.env).dataDir) } }),
  };
  const ARMS = ['undici', 'impersonate', 'relay'] as const;
  for (const e of Object.values(engines)) for (let i = 0; i < 20; i++) await e.scrape({ url, skip_tls_verification: true }); // warm-up
  const results: Record<string, Record<number, Run[]>> = { undici: {}, impersonate: {}, relay: {} };
  for (let round = 0; round < ROUNDS; round++) {
    for (const c of CONCURRENCY) {
      // Rotate which path goes first in each round.
      const shift = (round + c) % ARMS.length;
      const order = [...ARMS.slice(shift), ...ARMS.slice(0, shift)];
      for (const name of order) ((results[name]![c] ??= [])).push(await run(engines[name], url, c));
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  console.log('| c | path | req/s | CPU ms per scrape (relay\'s part) | p50 ms |');
  console.log('|---|---|---|---|---|');
  for (const c of CONCURRENCY) {
    for (const name of ARMS) {
      const rs = results[name]![c]!;
      console.log(`| ${c} | ${name} | ${median(rs.map((r) => r.rps)).toFixed(0)} | ${median(rs.map((r) => r.cpuMsPerScrape)).toFixed(2)} (${median(rs.map((r) => r.relayMsPerScrape)).toFixed(2)}) | ${median(rs.map((r) => r.p50)).toFixed(1)} |`);
    }
    const ratio = (a: string, b: string, label: string) => {
      const x = results[a]![c]!;
      const y = results[b]![c]!;
      console.log(`| ${c} | ${label} | ${(median(x.map((r) => r.rps)) / median(y.map((r) => r.rps))).toFixed(2)}x | ${(median(x.map((r) => r.cpuMsPerScrape)) / median(y.map((r) => r.cpuMsPerScrape))).toFixed(2)}x | |`);
    };
    ratio('relay', 'undici', 'relay / undici');
    ratio('relay', 'impersonate', 'relay / impersonate');
  }
  await Promise.all(Object.values(engines).map((e) => e.close()));
  child.kill();
}
