/**
 * Operator tool: prepares a Temporal cluster for the service, the same way on every cluster.
 *   npm run temporal:setup              registers TEMPORAL_NAMESPACE (when missing) and the
 *                                       search attributes of scripts/runtime/temporal-namespace.ts
 *                                       (those missing) on TEMPORAL_ADDRESS; waits for the
 *                                       server to answer (up to --wait seconds, default 120)
 *   npm run temporal:setup -- --print   prints that list as `temporal operator` commands, and
 *                                       connects to nothing (for a cluster you set up by hand)
 * Idempotent: an attribute already there with the right type is left alone; one with another
 * type stops it with a message naming it (exit 1). docker-compose.yml's `temporal-setup` runs it;
 * `npm start` does the same on the Temporal it starts or is given (docs/operations.md).
 */
import { Connection } from '@temporalio/client';
import { loadConfig } from '../platform/config';
import { SEARCH_ATTRIBUTES, prepareNamespace } from './runtime/temporal-namespace';

const say = (line: string) => console.log(`[temporal:setup] ${line}`);

function flag(argv: string[], name: string): string | true | undefined {
  for (const [i, arg] of argv.entries()) {
    if (arg === `--${name}`) return argv[i + 1] && !argv[i + 1]!.startsWith('--') ? argv[i + 1] : true;
    if (arg.startsWith(`--${name}=`)) return arg.slice(name.length + 3);
  }
  return undefined;
}

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  const config = loadConfig();
  const namespace = config.TEMPORAL_NAMESPACE;
  if (flag(argv, 'print')) {
    for (const [name, type] of Object.entries(SEARCH_ATTRIBUTES)) console.log(`temporal operator search-attribute create --namespace ${namespace} --name ${name} --type ${type}`);
    return 0;
  }
  const waitArg = flag(argv, 'wait');
  const waitSeconds = waitArg === undefined ? 120 : Number(waitArg);
  if (!Number.isFinite(waitSeconds) || waitSeconds < 0) {
    console.error('usage: npm run temporal:setup [-- --wait <seconds>] | -- --print');
    return 2;
  }
  // Unset: the Temporal `npm start` runs on this machine.
  const address = config.TEMPORAL_ADDRESS ?? `127.0.0.1:${config.TEMPORAL_DEV_PORT}`;
  const deadline = Date.now() + waitSeconds * 1000;
  say(`namespace ${namespace} on ${address}: ${Object.entries(SEARCH_ATTRIBUTES).map(([name, type]) => `${name} (${type})`).join(', ')}`);
  // A server still starting refuses connections: a lazy connection lets prepareNamespace retry each call.
  const connection = Connection.lazy({ address, connectTimeout: '5s' });
  try {
    const done = await prepareNamespace(connection, namespace, deadline);
    for (const line of done) say(line);
    say(done.length ? 'done' : 'nothing to do: the namespace and every search attribute were there');
    return 0;
  } finally {
    await connection.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`[temporal:setup] ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
