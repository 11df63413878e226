import http from 'node:http';
import { listenOnLoopback } from '../../platform/free-port';
import { type Backend, startBalancer } from './balancer';

/** A replica that answers its own name. */
async function replica(name: string): Promise<{ backend: Backend; close: () => Promise<void> }> {
  const server = http.createServer((_req, res) => res.end(name));
  const port = await listenOnLoopback(server);
  return {
    backend: { name, port },
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** One request on a connection of its own (no keep-alive: each goes through the balancer afresh). */
async function ask(port: number): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${port}/`, { headers: { connection: 'close' } });
  return res.text();
}

describe('the API replicas’ balancer', () => {
  it('hands connections to the running replicas in turn, skips one that refuses, and resets when none runs', async () => {
    const [a, b] = await Promise.all([replica('a'), replica('b')]);
    let running = [a.backend, b.backend];
    const balancer = await startBalancer({ host: '127.0.0.1', port: 0, backends: () => running });
    try {
      const answers: string[] = [];
      for (let i = 0; i < 6; i++) answers.push(await ask(balancer.port));
      expect(answers.sort()).toEqual(['a', 'a', 'a', 'b', 'b', 'b']);
      expect(balancer.handed).toEqual({ a: 3, b: 3 });

      // `a` died but is still listed (the supervisor has not seen it yet): its refusals are skipped.
      await a.close();
      for (let i = 0; i < 4; i++) expect(await ask(balancer.port)).toBe('b');

      // Only what the supervisor reports running is tried.
      running = [];
      await expect(ask(balancer.port)).rejects.toThrow();
    } finally {
      await balancer.close();
      await b.close();
    }
  });
});
