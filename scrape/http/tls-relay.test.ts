/**
 * The TLS relay process (deploy/tls-relay) on its own: only callers with its secret, the egress
 * proxy's refusals passed on as they are, and no process left after close(). Its ClientHello is
 * compared with Chromium's in api/routes/scrape-tls.test.ts and scrape/http/impersonate-engine.test.ts.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import { parseConfig } from '../../platform/config';
import { startEgressProxy, type EgressProxy } from '../browser/egress-proxy';
import { type TlsRelay, startTlsRelay, tlsRelayBinaryPath } from './tls-relay';

const binary = tlsRelayBinaryPath(parseConfig(process.env).dataDir);
let egress: EgressProxy;
let relay: TlsRelay;

beforeAll(async () => {
  egress = await startEgressProxy({ allowPrivateTargets: false, upstream: true });
  egress.assign('direct', null);
  relay = await startTlsRelay({ binary, egressUrl: egress.url, egressSecret: egress.secret, caFile: undefined, connectTimeoutMs: 5_000 });
});

afterAll(async () => {
  await relay?.close();
  await egress?.close();
});

/** The relay's answer (status line and headers) to a CONNECT with these credentials. */
async function connectAnswer(proxyUrl: string, target: string, credentials: string | undefined): Promise<string> {
  const url = new URL(proxyUrl);
  const socket = net.connect(Number(url.port), url.hostname);
  const auth = credentials === undefined ? '' : `Proxy-Authorization: Basic ${Buffer.from(credentials).toString('base64')}\r\n`;
  socket.write(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n${auth}\r\n`);
  let text = '';
  for await (const chunk of socket) {
    text += (chunk as Buffer).toString('latin1');
    if (text.includes('\r\n\r\n')) break;
  }
  socket.destroy();
  return text.slice(0, text.indexOf('\r\n\r\n'));
}

const credentialsOf = (proxyUrl: string) => {
  const url = new URL(proxyUrl);
  return { user: decodeURIComponent(url.username), secret: decodeURIComponent(url.password) };
};

it('names the binary as scripts/setup.cjs builds it', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const built = (require('../../scripts/tls-relay.cjs') as { binaryPath: (dataDir: string) => string }).binaryPath(parseConfig(process.env).dataDir);
  expect(tlsRelayBinaryPath(parseConfig(process.env).dataDir)).toBe(built);
  expect(fs.existsSync(built)).toBe(true);
});

it('refuses a caller without its secret', async () => {
  const { user } = credentialsOf(relay.proxyUrl('direct', false));
  expect(await connectAnswer(relay.proxyUrl('direct', false), 'example.com:443', undefined)).toMatch(/^HTTP\/1\.1 407 /);
  expect(await connectAnswer(relay.proxyUrl('direct', false), 'example.com:443', `${user}:not-the-secret`)).toMatch(/^HTTP\/1\.1 407 /);
  expect(await connectAnswer(relay.proxyUrl('direct', false), 'example.com:443', `direct:${credentialsOf(relay.proxyUrl('direct', false)).secret}`)).toMatch(/^HTTP\/1\.1 407 /);
});

it("passes on the egress proxy's refusal of a private target, with its guard header", async () => {
  const proxyUrl = relay.proxyUrl('direct', false);
  const { user, secret } = credentialsOf(proxyUrl);
  const answer = await connectAnswer(proxyUrl, '127.0.0.1:443', `${user}:${secret}`);
  expect(answer).toMatch(/^HTTP\/1\.1 403 /);
  expect(answer.toLowerCase()).toContain('x-scrape-guard: private_target');
  expect(egress.stats().blocked).toBeGreaterThanOrEqual(1);
});

it('stops its process on close()', async () => {
  const own = await startTlsRelay({ binary, egressUrl: egress.url, egressSecret: egress.secret, caFile: undefined, connectTimeoutMs: 5_000 });
  expect(fs.existsSync(`/proc/${own.pid}`)).toBe(true);
  await own.close();
  const gone = () => !fs.existsSync(`/proc/${own.pid}`) || fs.readFileSync(`/proc/${own.pid}/stat`, 'utf8').split(' ')[2] === 'Z';
  expect(gone()).toBe(true);
});

it('exits when the process that started it dies (its stdin closes): no orphan', async () => {
  // A plain Node owner that starts the relay as tls-relay.ts does, prints the relay's pid, and is then killed.
  const config = JSON.stringify({ egress: new URL(egress.url).host, egressSecret: egress.secret, relaySecret: 'x', caFile: '', connectTimeoutMs: 5_000 });
  const script = `const c = require('node:child_process').spawn(${JSON.stringify(binary)}, [], { stdio: ['pipe', 'pipe', 'inherit'] });
c.stdin.write(${JSON.stringify(`${config}\n`)});
c.stdout.once('data', () => console.log(c.pid));`;
  const owner = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const relayPid = await new Promise<number>((resolve) => owner.stdout.once('data', (d: Buffer) => resolve(Number(d.toString().trim()))));
  expect(fs.existsSync(`/proc/${relayPid}`)).toBe(true);
  owner.kill('SIGKILL');
  const alive = () => fs.existsSync(`/proc/${relayPid}`) && fs.readFileSync(`/proc/${relayPid}/stat`, 'utf8').split(' ')[2] !== 'Z';
  const deadline = Date.now() + 20_000;
  while (alive() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  expect(alive()).toBe(false);
});
