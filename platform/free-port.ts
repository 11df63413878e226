import { closeSync, mkdirSync, openSync, readFileSync, readdirSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/**
 * A free loopback TCP port for a server that another process binds later (a Temporal server, an
 * API process). The port comes from below the kernel's ephemeral range, reserved for this process
 * across processes, because a port from `listen(0)` is only free until someone else is handed it:
 * every `listen(0)` and outgoing connection on the machine draws from the ephemeral range, and the
 * Temporal dev server picks four internal ports of its own there (pick, then bind seconds later).
 * A port handed out that way was taken between our pick and our server's bind in a CI run
 * (README.md, "Tests"). get-port and portfinder keep their locks in one process only; two
 * jest workers would be handed the same port.
 */
export async function freePort(): Promise<number> {
  const pool = reservablePorts();
  if (!pool) return kernelPort();
  const size = pool.high - pool.low + 1;
  const start = Math.floor(Math.random() * size);
  for (let step = 0; step < size; step += 1) {
    const port = pool.low + ((start + step) % size);
    if (!reserve(port)) continue;
    if (await canListen(port)) return port;
    release(port);
  }
  return kernelPort();
}

/** Reservations live as files named by port, holding the pid that owns them. */
const reservationDir = path.join(os.tmpdir(), 'scraper-port-reservations');
const heldHere = new Set<number>();

/** Ports from 20000 up to the ephemeral range's start (Linux); undefined where it cannot be read. */
function reservablePorts(): { low: number; high: number } | undefined {
  let ephemeralLow: number;
  try {
    ephemeralLow = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
  } catch {
    return undefined;
  }
  const low = 20_000;
  return Number.isInteger(ephemeralLow) && ephemeralLow - low >= 1000 ? { low, high: ephemeralLow - 1 } : undefined;
}

/**
 * Claims `port` for this process unless a live process holds it; a dead holder's claim is taken
 * over. Exported for its test.
 */
export function reserve(port: number): boolean {
  if (heldHere.has(port)) return false;
  if (!pruned) pruneDeadClaims();
  const file = path.join(reservationDir, String(port));
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      if (heldHere.size === 0) process.once('exit', releaseAll);
      heldHere.add(port);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (holderAlive(file)) return false;
      try {
        unlinkSync(file);
      } catch {
        // Another process took the stale claim over first; the next attempt finds its file.
      }
    }
  }
  return false;
}

let pruned = false;

/**
 * Once per process: removes the claims of processes that are gone. A process removes its own at
 * exit, but one killed leaves them behind, and so does a jest test file (its exit handlers, on
 * the sandbox's `process`, do not run).
 */
function pruneDeadClaims(): void {
  pruned = true;
  mkdirSync(reservationDir, { recursive: true });
  for (const name of readdirSync(reservationDir)) {
    const file = path.join(reservationDir, name);
    if (!holderAlive(file)) rmSync(file, { force: true });
  }
}

function holderAlive(file: string): boolean {
  let content: string;
  try {
    content = readFileSync(file, 'utf8');
  } catch {
    return true; // just removed: leave it to whoever did
  }
  if (content === '') return true; // created, its pid not written yet
  const pid = Number(content);
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function release(port: number): void {
  heldHere.delete(port);
  try {
    unlinkSync(path.join(reservationDir, String(port)));
  } catch {
    // already gone
  }
}

function releaseAll(): void {
  for (const port of [...heldHere]) release(port);
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** The kernel's choice, where no range below the ephemeral one can be read (not Linux). */
function kernelPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** Starts `server` listening on a free loopback port and answers the port (rejects if it cannot listen). */
export function listenOnLoopback(server: net.Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve((server.address() as net.AddressInfo).port);
    });
  });
}

/** Whether something accepts TCP connections on host:port now (one attempt). */
export function acceptsConnections(host: string, port: number): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const socket = net.connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Resolves once something accepts TCP connections on host:port, or rejects after `timeoutMs`. */
export async function waitForPort(host: string, port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await acceptsConnections(host, port)) return;
    if (Date.now() > deadline) throw new Error(`Nothing listens on ${host}:${port} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
