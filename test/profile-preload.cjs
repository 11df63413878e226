/**
 * A preload for profiling the service's processes in place (bench/lone-scrape.ts sets it through
 * NODE_OPTIONS="--require test/profile-preload.cjs"; --cpu-prof is refused in NODE_OPTIONS).
 * SIGWINCH toggles: the first starts the V8 CPU profiler and zeroes the counters, the second stops
 * it and writes, under PROFILE_DIR, `<role>-<pid>-<n>.cpuprofile` and `<role>-<pid>-<n>.json`
 * (SQL statements this process sent through `pg`, by statement text, while the profiler ran).
 * SIGWINCH because SIGUSR2 drains Temporal workers. Bench-only: never loaded by the service.
 */
'use strict';
const inspector = require('node:inspector');
const fs = require('node:fs');
const path = require('node:path');

const dir = process.env.PROFILE_DIR;
const role = process.argv.some((a) => a.includes('workers/main')) ? 'worker' : process.argv.some((a) => a.includes('api/server')) ? 'api' : 'other';
if (dir && role !== 'other') {
  const session = new inspector.Session();
  session.connect();
  let running = false;
  let n = 0;
  let statements = new Map();
  try {
    const pg = require(require.resolve('pg', { paths: [process.cwd()] }));
    const original = pg.Client.prototype.query;
    pg.Client.prototype.query = function countedQuery(config, ...rest) {
      if (running) {
        const text = typeof config === 'string' ? config : (config && config.text) || '?';
        const key = text.replace(/\s+/g, ' ').slice(0, 160);
        statements.set(key, (statements.get(key) || 0) + 1);
      }
      return original.call(this, config, ...rest);
    };
  } catch {
    // no pg in this process
  }
  process.on('SIGWINCH', () => {
    if (!running) {
      statements = new Map();
      session.post('Profiler.enable', () => session.post('Profiler.setSamplingInterval', { interval: 200 }, () => session.post('Profiler.start', () => { running = true; })));
      return;
    }
    running = false;
    session.post('Profiler.stop', (error, result) => {
      n++;
      const base = path.join(dir, `${role}-${process.pid}-${n}`);
      if (!error) fs.writeFileSync(`${base}.cpuprofile`, JSON.stringify(result.profile));
      fs.writeFileSync(`${base}.json`, JSON.stringify(Object.fromEntries([...statements].sort((a, b) => b[1] - a[1])), null, 1));
    });
  });
}
