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
    for (const service of ['postgres:', 'temporal:', 'temporal-ui:', 'api:', 'worker-http:', 'worker-browser:', 'prometheus:', 'grafana:']) {
      expect(text).toContain(`  ${service}`);
    }
    expect(text).toContain('DATABASE_URL: postgresql://scrape:scrape@postgres:5432/scrape');
    expect(text).toContain('TEMPORAL_ADDRESS: temporal:7233');
    expect(text).toContain('WORKER_QUEUES: browser');
  });

  it('refuses to start without an auth secret', () => {
    const result = compose({});
    expect(result.status).not.toBe(0);
    expect(result.stderr).toMatch(/set BETTER_AUTH_SECRET/);
  });
});
