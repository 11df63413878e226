/**
 * http mode's Chrome-ClientHello TLS relay (deploy/tls-relay, Go and utls; docs/scraping.md "How we
 * look to a site", "http mode"): an HTTP CONNECT proxy on 127.0.0.1 between wreq-js and the egress
 * proxy that does the TLS handshake with the site with the shipped Chromium's ClientHello (the
 * signature algorithms wreq-js cannot send: a GREASE value and ML-DSA), verifies the site's
 * certificate, and hands wreq-js a local TLS hop (which wreq-js does not verify) carrying the
 * site's ALPN protocol; wreq-js's HTTP/2 frames reach the site unchanged.
 *
 * One relay process per impersonating client. Its configuration (the egress proxy, both secrets,
 * the CA bundle) is one JSON line on its stdin; it prints its port, and exits when its stdin
 * closes, so it dies with this process (no orphan).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { processEnvironment } from '../../platform/config';
import { acceptsConnections } from '../../platform/free-port';

const MODULE_DIR = path.resolve(__dirname, '..', '..', 'deploy', 'tls-relay');

/** `<DATA_DIR>/bin/tls-relay-<hash of its Go sources>`: the path scripts/tls-relay.cjs builds (scripts/setup.cjs). */
export function tlsRelayBinaryPath(dataDir: string): string {
  const files = fs
    .readdirSync(MODULE_DIR)
    .filter((f) => f === 'go.mod' || f === 'go.sum' || (f.endsWith('.go') && !f.endsWith('_test.go')))
    .sort();
  const hash = createHash('sha256');
  for (const f of files) hash.update(f).update('\0').update(fs.readFileSync(path.join(MODULE_DIR, f))).update('\0');
  return path.join(dataDir, 'bin', `tls-relay-${hash.digest('hex').slice(0, 12)}`);
}

/**
 * The Go runtime's settings for the relay: one thread running Go code (the relay copies bytes
 * between sockets; a second one only spins looking for work, docs/benchmarks.md "http mode: the
 * TLS relay").
 */
const RELAY_RUNTIME = { GOMAXPROCS: '1' };

export interface TlsRelayOptions {
  binary: string;
  /** The egress proxy's URL (http://127.0.0.1:port) and the password of its credentials. */
  egressUrl: string;
  egressSecret: string;
  /** Trusted roots (PEM bundle); undefined: the system's (Go reads SSL_CERT_FILE). */
  caFile: string | undefined;
  connectTimeoutMs: number;
}

export interface TlsRelay {
  /** The proxy URL wreq-js is given for an egress token: credentials `verify.<token>` or `insecure.<token>` : secret. */
  proxyUrl(egressToken: string, skipTlsVerification: boolean): string;
  pid: number;
  /** False once its process has exited (killed, crashed): the client then starts another. */
  alive(): boolean;
  /**
   * Whether its port still accepts connections. A killed relay's port closes with its process,
   * before this process may have seen the exit: a hop that failed asks this to tell a dead relay
   * from a site's failure.
   */
  listening(): Promise<boolean>;
  close(): Promise<void>;
}

export async function startTlsRelay(options: TlsRelayOptions): Promise<TlsRelay> {
  const secret = randomBytes(18).toString('base64url');
  const child: ChildProcess = spawn(options.binary, [], { stdio: ['pipe', 'pipe', 'inherit'], env: { ...processEnvironment(), ...RELAY_RUNTIME } });
  const egress = new URL(options.egressUrl);
  child.stdin!.write(
    `${JSON.stringify({ egress: egress.host, egressSecret: options.egressSecret, relaySecret: secret, caFile: options.caFile ?? '', connectTimeoutMs: options.connectTimeoutMs })}\n`,
  );
  const port = await new Promise<number>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    const failed = (err: Error) => reject(err);
    child.once('error', failed);
    child.once('exit', (code) => reject(new Error(`the TLS relay exited (${code}) before it listened`)));
    lines.once('line', (line) => {
      const parsed = JSON.parse(line) as { port?: number };
      if (typeof parsed.port === 'number') resolve(parsed.port);
      else reject(new Error(`the TLS relay said: ${line.slice(0, 200)}`));
    });
  }).catch((err: unknown) => {
    child.kill('SIGKILL');
    throw err;
  });
  // Not kept alive by the relay: the process may exit while it runs (its stdin closes then, and it stops).
  child.unref();
  (child.stdin as unknown as { unref?: () => void }).unref?.();
  (child.stdout as unknown as { unref?: () => void }).unref?.();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    pid: child.pid!,
    alive: () => child.exitCode === null && child.signalCode === null,
    listening: () => acceptsConnections('127.0.0.1', port),
    proxyUrl(egressToken, skipTlsVerification) {
      const url = new URL(`http://127.0.0.1:${port}`);
      url.username = encodeURIComponent(`${skipTlsVerification ? 'insecure' : 'verify'}.${egressToken}`);
      url.password = encodeURIComponent(secret);
      return url.href;
    },
    async close() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.stdin!.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), 2_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
