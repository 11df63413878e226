/*
 * Where the TLS relay's binary lives and how it is built (docs/scraping.md "How we look to a site"):
 * `<DATA_DIR>/bin/tls-relay-<hash of its Go sources>`, so a change of the sources builds a new one.
 * Plain Node (setup.cjs builds it before dependencies exist); scrape/http/tls-relay.ts
 * computes the same path (tls-relay.test.ts checks both agree).
 */
'use strict';
const { execFileSync } = require('node:child_process');
const { createHash } = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const MODULE_DIR = path.resolve(__dirname, '..', 'deploy', 'tls-relay');

/** The files whose content names the binary: go.mod, go.sum and the Go sources (tests excluded), sorted. */
function sourceFiles() {
  return fs
    .readdirSync(MODULE_DIR)
    .filter((f) => f === 'go.mod' || f === 'go.sum' || (f.endsWith('.go') && !f.endsWith('_test.go')))
    .sort();
}

function sourceHash() {
  const hash = createHash('sha256');
  for (const f of sourceFiles()) hash.update(f).update('\0').update(fs.readFileSync(path.join(MODULE_DIR, f))).update('\0');
  return hash.digest('hex').slice(0, 12);
}

function binaryPath(dataDir) {
  return path.join(dataDir, 'bin', `tls-relay-${sourceHash()}`);
}

function goCommand() {
  for (const dir of [...(process.env.PATH || '').split(path.delimiter), '/usr/local/go/bin']) {
    const candidate = path.join(dir, 'go');
    if (dir && fs.existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** Builds the relay if its binary is missing; returns its path, or undefined without Go. */
function ensureBinary(dataDir, log = () => undefined) {
  const target = binaryPath(dataDir);
  if (fs.existsSync(target)) return target;
  const go = goCommand();
  if (!go) return undefined;
  fs.mkdirSync(path.dirname(target), { recursive: true });
  log(`building the TLS relay (Go, utls) into ${target}...`);
  // A partial file of this process's own: two builds at once must not write the same file.
  const partial = `${target}.${process.pid}.partial`;
  execFileSync(go, ['build', '-trimpath', '-o', partial, '.'], {
    cwd: MODULE_DIR,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, GOFLAGS: '-mod=mod -buildvcs=false' },
  });
  fs.renameSync(partial, target);
  // Binaries of older sources go (a running one keeps its file open until it exits).
  for (const f of fs.readdirSync(path.dirname(target))) {
    if (/^tls-relay-[0-9a-f]{12}$/.test(f) && f !== path.basename(target)) fs.rmSync(path.join(path.dirname(target), f), { force: true });
  }
  return target;
}

module.exports = { sourceHash, binaryPath, ensureBinary };
