/**
 * `npm start`'s plan: which topology it runs, and so which worker and API processes it supervises
 * (docs/operations.md, "The cluster topology").
 */
import { type Config, ConfigError } from '../../platform/config';
import { freePort } from '../../platform/free-port';

export type Topology = 'single' | 'cluster';

/** `--topology=single` (the default: dev server, one worker, one API) or `--topology=cluster`. */
export function topologyOf(argv: string[]): Topology {
  let value: string | undefined;
  argv.forEach((arg, i) => {
    if (arg.startsWith('--topology=')) value = arg.slice('--topology='.length);
    else if (arg === '--topology') value = argv[i + 1] ?? '';
  });
  if (value === undefined || value === 'single') return 'single';
  if (value === 'cluster') return 'cluster';
  throw new ConfigError([`--topology must be single or cluster, not ${value || '(nothing)'}`]);
}

export interface WorkerProcess {
  name: string;
  queues: Config['WORKER_QUEUES'];
  metricsPort: number;
}
export interface ApiProcess {
  name: string;
  host: string;
  port: number;
}

/**
 * Each worker's own metrics port in the cluster topology: WORKER_METRICS_PORT, then the next
 * numbers up, skipping the supervisor's and the API's ports (defaults: 9464, 9466, 9467).
 */
function workerMetricsPorts(base: number, count: number, avoid: number[]): number[] {
  if (base === 0) return Array.from({ length: count }, () => 0);
  const ports: number[] = [];
  for (let port = base; ports.length < count; port++) if (!avoid.includes(port)) ports.push(port);
  return ports;
}

/** The worker processes: one serving WORKER_QUEUES, or (cluster) two http workers and a browser worker. */
export function planWorkers(config: Config, topology: Topology): WorkerProcess[] {
  if (topology === 'single') return [{ name: 'worker', queues: config.WORKER_QUEUES, metricsPort: config.WORKER_METRICS_PORT }];
  const ports = workerMetricsPorts(config.WORKER_METRICS_PORT, 3, [config.SUPERVISOR_PORT, config.PORT]);
  return [
    { name: 'worker-http-1', queues: 'http', metricsPort: ports[0]! },
    { name: 'worker-http-2', queues: 'http', metricsPort: ports[1]! },
    { name: 'worker-browser', queues: 'browser', metricsPort: ports[2]! },
  ];
}

/**
 * The API processes: one on HOST:PORT, or (cluster) two replicas on loopback ports of their own,
 * chosen free at each start; the balancer in `npm start`'s process is then the entry point on HOST:PORT.
 */
export async function planApis(config: Config, topology: Topology): Promise<ApiProcess[]> {
  if (topology === 'single') return [{ name: 'api', host: config.HOST, port: config.PORT }];
  return [
    { name: 'api-1', host: '127.0.0.1', port: await freePort() },
    { name: 'api-2', host: '127.0.0.1', port: await freePort() },
  ];
}
