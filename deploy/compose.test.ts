import { execFile, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { Connection } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time';
import { temporal as proto } from '@temporalio/proto';
import { parse as parseYaml } from 'yaml';
import { SEARCH_ATTRIBUTES } from '../scripts/runtime/temporal-namespace';
import { testEnv } from '../test/helpers/env';
import { waitFor } from '../test/helpers/wait';

const root = path.resolve(__dirname, '..');
const compose = (env: Record<string, string>, ...args: string[]) =>
  spawnSync('/usr/bin/docker-compose', ['-f', path.join(root, 'docker-compose.yml'), 'config', ...args], {
    cwd: root,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', ...env },
  });

describe('docker-compose.yml (validated by docker-compose; no engine runs here)', () => {
  it('is a valid Compose file that wires every service with the documented configuration names', () => {
    const result = compose({ BETTER_AUTH_SECRET: 'x'.repeat(40) });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const text = result.stdout;
    for (const service of ['postgres:', 'temporal-schema:', 'temporal:', 'temporal-setup:', 'temporal-ui:', 'api:', 'api-entry:', 'worker-http:', 'worker-browser:', 'prometheus:', 'grafana:']) {
      expect(text).toContain(`  ${service}`);
    }
    expect(text).toContain('DATABASE_URL: postgresql://scrape:scrape@postgres:5432/scrape');
    expect(text).toContain('TEMPORAL_ADDRESS: temporal:7233');
    expect(text).toContain('WORKER_QUEUES: browser');
  });

  it('has the shape of `npm start -- --topology=cluster`: the official server on PostgreSQL, 2 API replicas, 2 http workers, 1 browser worker', () => {
    const result = compose({ BETTER_AUTH_SECRET: 'x'.repeat(40) });
    expect(result.status).toBe(0);
    const text = result.stdout;
    // `docker-compose config` prints services in name order, each with its keys sorted.
    const service = (name: string) => {
      const start = text.indexOf(`\n  ${name}:\n`);
      expect(start).toBeGreaterThan(-1);
      const rest = text.slice(start + name.length + 5);
      const end = rest.search(/\n {2}[a-z][a-z-]*:\n|\n[a-z]/);
      return end === -1 ? rest : rest.slice(0, end);
    };
    expect(service('temporal')).toContain('image: temporalio/server:1.29.1');
    expect(service('temporal')).toContain('DB: postgres12');
    expect(service('temporal')).toContain('/deploy/temporal-server/dynamicconfig.yaml:/etc/temporal/config/dynamicconfig/scrape.yaml');
    expect(text).not.toContain('auto-setup');
    // (Long commands are folded across lines by `config`: check words, not sentences.)
    for (const word of ['create-database', 'setup-schema', 'update-schema', 'postgresql/v12/$$schema', 'image: temporalio/admin-tools:1.29.1']) expect(service('temporal-schema')).toContain(word);
    expect(service('temporal-schema')).toContain('temporal_visibility:visibility');
    expect(service('api')).toMatch(/replicas: 2/);
    expect(service('worker-http')).toMatch(/replicas: 2/);
    expect(service('worker-http')).toContain('WORKER_QUEUES: http');
    expect(service('worker-browser')).not.toMatch(/replicas/);
    expect(service('api-entry')).toContain('/deploy/nginx/api.conf:/etc/nginx/conf.d/default.conf');
    expect(service('api-entry')).toMatch(/published: 3000\n\s+target: 3000/);
    expect(service('api')).not.toContain('published');
  });

  it('refuses to start without an auth secret', () => {
    const result = compose({});
    expect(result.status).not.toBe(0);
    expect(result.stderr).toMatch(/set BETTER_AUTH_SECRET/);
  });

  it('runs SearXNG (official image, JSON enabled by its settings) and points the API replicas at it (docs/search.md)', () => {
    const result = compose({ BETTER_AUTH_SECRET: 'x'.repeat(40) });
    expect(result.status).toBe(0);
    const services = (parseYaml(result.stdout) as { services: Record<string, { image?: string; volumes?: string[]; environment?: Record<string, string>; ports?: string[] }> }).services;
    expect(services.searxng!.image).toMatch(/^searxng\/searxng:/);
    expect(services.searxng!.volumes!.some((v) => /deploy\/searxng\/settings\.yml:\/etc\/searxng\/settings\.yml/.test(v))).toBe(true);
    expect(services.api!.environment!.SEARXNG_ENDPOINT).toBe('http://searxng:8080');
    const settings = parseYaml(readFileSync(path.join(root, 'deploy', 'searxng', 'settings.yml'), 'utf8')) as { search: { formats: string[] } };
    expect(settings.search.formats).toContain('json');
    // Set empty, no search backend (SEARCH_NOT_CONFIGURED rather than a service that is not there).
    const without = parseYaml(compose({ BETTER_AUTH_SECRET: 'x'.repeat(40), SEARXNG_ENDPOINT: '' }).stdout) as { services: Record<string, { environment?: Record<string, string> }> };
    expect(without.services.api!.environment!.SEARXNG_ENDPOINT).toBe('');
  });
});

interface ComposeService {
  image?: string;
  build?: unknown;
  command?: string[] | string;
  entrypoint?: string[] | string;
  environment?: Record<string, string>;
}

/** The services as `docker-compose config` resolves them (anchors merged, variables substituted). */
function resolvedServices(): Record<string, ComposeService> {
  const result = compose({ BETTER_AUTH_SECRET: 'x'.repeat(40) });
  expect(result.status).toBe(0);
  return (parseYaml(result.stdout) as { services: Record<string, ComposeService> }).services;
}

const KIND_OF: Record<number, string> = {
  [proto.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD]: 'Keyword',
  [proto.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD_LIST]: 'KeywordList',
  [proto.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_TEXT]: 'Text',
  [proto.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_INT]: 'Int',
};

describe('docker-compose.yml registers the search attributes of the code, and only those', () => {
  let connection: Connection;
  beforeAll(async () => {
    connection = await Connection.connect({ address: testEnv('temporalAddress') });
  });
  afterAll(async () => {
    await connection?.close();
  });

  /** The custom search attributes a namespace has, as `Name: Kind` (the shape of SEARCH_ATTRIBUTES). */
  const attributesOf = async (namespace: string) => {
    const listed = await connection.operatorService.listSearchAttributes({ namespace });
    return Object.fromEntries(Object.entries(listed.customAttributes ?? {}).map(([name, type]) => [name, KIND_OF[type] ?? String(type)]));
  };

  /**
   * Runs compose's registration step as compose would (its command, its environment, from the
   * repository root: the image's WORKDIR holds the repository), against the test suite's Temporal
   * server and a namespace of its own.
   */
  const runSetupStep = async (namespace: string) => {
    const setup = resolvedServices()['temporal-setup']!;
    const [node, ...args] = setup.command as string[];
    expect(node).toBe('node');
    return promisify(execFile)(process.execPath, args, {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', ...setup.environment, TEMPORAL_ADDRESS: testEnv('temporalAddress'), TEMPORAL_NAMESPACE: namespace },
    }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
    );
  };

  it('runs the service’s own registration command from the service’s image, and names no attribute by hand', () => {
    const services = resolvedServices();
    const setup = services['temporal-setup']!;
    // The image the app services are built into (the repository's Dockerfile), so the command is there.
    expect(setup.image).toBe(services.api!.image);
    expect(setup.build).toEqual(services.api!.build);
    expect(setup.command).toEqual(expect.arrayContaining(['scripts/temporal-setup.ts']));
    expect(setup.environment).toMatchObject({ TEMPORAL_ADDRESS: 'temporal:7233', TEMPORAL_NAMESPACE: services.api!.environment!.TEMPORAL_NAMESPACE });
    // A hand-written list (`temporal operator search-attribute create ...`) anywhere would be a second source.
    const text = JSON.stringify(services);
    expect(text).not.toMatch(/search-attribute/);
    for (const name of Object.keys(SEARCH_ATTRIBUTES)) expect(text).not.toContain(name);
  });

  it('its step registers exactly SEARCH_ATTRIBUTES (names and types) on a namespace it creates, and does nothing the second time', async () => {
    const namespace = `compose-${randomBytes(4).toString('hex')}`;
    const first = await runSetupStep(namespace);
    expect(first).toMatchObject({ code: 0 });
    expect(first.stdout).toContain(`registered namespace ${namespace}`);
    expect(await attributesOf(namespace)).toEqual(SEARCH_ATTRIBUTES);

    const again = await runSetupStep(namespace);
    expect(again).toMatchObject({ code: 0 });
    expect(again.stdout).toContain('nothing to do');
    expect(await attributesOf(namespace)).toEqual(SEARCH_ATTRIBUTES);
  });

  it('stops with a message naming an attribute that exists with another type, and adds nothing', async () => {
    const namespace = `compose-${randomBytes(4).toString('hex')}`;
    await connection.workflowService.registerNamespace({ namespace, workflowExecutionRetentionPeriod: msToTs(86_400_000) });
    // A namespace just registered is known to the frontend once its cache refreshes.
    await waitFor('the namespace takes a search attribute', () =>
      connection.operatorService.addSearchAttributes({ namespace, searchAttributes: { CrawlId: proto.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_TEXT } }).then(
        () => true,
        () => false,
      ),
    );
    await waitFor('CrawlId listed', async () => (await attributesOf(namespace)).CrawlId === 'Text');

    const refused = await runSetupStep(namespace);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`Temporal namespace ${namespace} has search attribute(s) of another type than the service writes: CrawlId is Text, needs Keyword`);
    expect(await attributesOf(namespace)).toEqual({ CrawlId: 'Text' });
  });
});
