import { spawnSync } from 'node:child_process';
import path from 'node:path';

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
});
