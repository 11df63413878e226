/**
 * The entry point of the API replicas in `npm start -- --topology=cluster`: a TCP balancer in the
 * supervisor on PORT that hands each connection to the next replica that runs (round robin), and
 * to the one after it when that one refuses (it just died). A client therefore sees no refused
 * connection while one replica restarts. TCP, not HTTP: a keep-alive connection stays on the
 * replica it reached (docs/operations.md, "The cluster topology").
 */
import net from 'node:net';

export interface Backend {
  name: string;
  port: number;
}

export interface Balancer {
  port: number;
  /** Connections handed to each backend so far, by name. */
  handed: Record<string, number>;
  close(): Promise<void>;
}

export interface BalancerOptions {
  host: string;
  port: number;
  /** The replicas that may take a connection now (those the supervisor reports running), in order. */
  backends: () => Backend[];
}

function connect(port: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.off('error', reject);
      resolve(socket);
    });
    socket.once('error', reject);
  });
}

export async function startBalancer(options: BalancerOptions): Promise<Balancer> {
  let next = 0;
  const handed: Record<string, number> = {};
  const open = new Set<net.Socket>();

  const server = net.createServer((client) => {
    open.add(client);
    client.once('close', () => open.delete(client));
    client.on('error', () => client.destroy());
    client.pause();
    void (async () => {
      const candidates = options.backends();
      const start = next++;
      for (let i = 0; i < candidates.length; i++) {
        const backend = candidates[(start + i) % candidates.length]!;
        let upstream: net.Socket;
        try {
          upstream = await connect(backend.port);
        } catch {
          continue; // refused: it is going down or not up yet; try the next one
        }
        if (client.destroyed) {
          upstream.destroy();
          return;
        }
        handed[backend.name] = (handed[backend.name] ?? 0) + 1;
        open.add(upstream);
        upstream.once('close', () => {
          open.delete(upstream);
          client.destroy();
        });
        upstream.on('error', () => upstream.destroy());
        client.once('close', () => upstream.destroy());
        client.pipe(upstream);
        upstream.pipe(client);
        client.resume();
        return;
      }
      client.destroy(); // no replica runs: the client sees the connection reset
    })();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as net.AddressInfo).port,
    handed,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of open) socket.destroy();
      }),
  };
}
