import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort, reserve } from './free-port';

const ephemeralLow = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
const reservations = path.join(os.tmpdir(), 'scraper-port-reservations');

/** A node process that claims `count` ports, prints them as JSON and stays alive until stdin closes. */
function claimInChild(count: number): Promise<{ child: ChildProcess; ports: number[] }> {
  const script = `
    const { freePort } = require(${JSON.stringify(path.join(__dirname, 'free-port.ts'))});
    (async () => {
      const ports = [];
      for (let i = 0; i < ${count}; i += 1) ports.push(await freePort());
      process.stdout.write(JSON.stringify(ports) + '\\n');
      process.stdin.resume();
      process.stdin.on('end', () => process.exit(0));
    })();`;
  const child = spawn(process.execPath, ['--import', 'tsx', '-e', script], { stdio: ['pipe', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      if (out.includes('\n')) resolve({ child, ports: JSON.parse(out) as number[] });
    });
    child.once('exit', (code) => reject(new Error(`child exited (${code}) before answering: ${out}`)));
  });
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', () => resolve())));
}

describe('freePort', () => {
  test('answers a port below the ephemeral range that a server can listen on', async () => {
    const port = await freePort();
    expect(port).toBeGreaterThanOrEqual(20_000);
    expect(port).toBeLessThan(ephemeralLow);
    const server = net.createServer();
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve));
    await new Promise((resolve) => server.close(resolve));
    expect(readFileSync(path.join(reservations, String(port)), 'utf8')).toBe(String(process.pid));
  });

  test('never answers the same port twice, in one process or across processes', async () => {
    const { child, ports: theirs } = await claimInChild(400);
    try {
      const ours: number[] = [];
      for (let i = 0; i < 400; i += 1) ours.push(await freePort());
      expect(new Set(ours).size).toBe(ours.length);
      expect(new Set(theirs).size).toBe(theirs.length);
      expect(ours.filter((port) => theirs.includes(port))).toEqual([]);
    } finally {
      child.stdin!.end();
      await exited(child);
    }
    // The child released its claims on exit.
    expect(theirs.filter((port) => reserve(port)).length).toBe(theirs.length);
  }, 60_000);

  test('a claim held by a live process is respected; a dead holder’s claim is taken over', async () => {
    mkdirSync(reservations, { recursive: true });
    const dead = spawn(process.execPath, ['-e', '']);
    await exited(dead);
    let port = ephemeralLow - 1;
    while (existsSync(path.join(reservations, String(port)))) port -= 1;
    writeFileSync(path.join(reservations, String(port)), String(dead.pid));
    expect(reserve(port)).toBe(true);
    expect(readFileSync(path.join(reservations, String(port)), 'utf8')).toBe(String(process.pid));

    const { child, ports } = await claimInChild(1);
    try {
      expect(reserve(ports[0] as number)).toBe(false);
    } finally {
      child.stdin!.end();
      await exited(child);
    }
  }, 30_000);
});
