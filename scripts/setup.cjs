#!/usr/bin/env node
/*
 * Bootstrap run by `npm start` and `npm test` before anything else, so the README's two
 * commands are the whole set-up on a fresh clone. Plain Node, no dependencies. Idempotent:
 *   1. npm dependencies (npm ci) when node_modules is missing or older than package-lock.json
 *   2. the Prisma client (prisma generate) when missing or older than prisma/schema.prisma
 *   3. Debian packages when missing, if we are root and apt-get exists (SKIP_SYSTEM_PACKAGES=1
 *      turns this off): chromium (full, new headless) for browser mode; with --for-tests also prometheus (its
 *      promtool checks the /metrics format) and docker-compose (validates docker-compose.yml,
 *      no engine needed). Without them browser mode answers 503 until
 *      CHROMIUM_PATH points at a Chromium, and the metrics-format test fails saying why.
 *   4. the web console (scripts/build-dashboard.cjs) into dist/dashboard/ when its sources changed
 * With --for-tests also the Python tools venv (scripts/python-tools.cjs: the Python client's
 * generator and schemathesis, pinned in scripts/python-requirements.txt) in <DATA_DIR>/py.
 *   5. http mode's TLS relay (deploy/tls-relay, Go and utls) into <DATA_DIR>/bin when Go is there and
 *      its sources changed (without it http mode sends wreq-js's own ClientHello, docs/scraping.md)
 * The Temporal CLI is built later, by the code that needs it (scripts/runtime/temporal-server.ts).
 * This bootstrap reads a few environment variables itself: the service's config module is not
 * loadable before dependencies exist.
 */
'use strict';
const { execFileSync } = require('node:child_process');
const { createHash } = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const args = new Set(process.argv.slice(2));
const log = (line) => console.log(`[setup] ${line}`);

function hashOf(...files) {
  const hash = createHash('sha256');
  for (const file of files) hash.update(fs.readFileSync(path.join(root, file)));
  return hash.digest('hex');
}

function stale(stampFile, hash) {
  try {
    return fs.readFileSync(stampFile, 'utf8').trim() !== hash;
  } catch {
    return true;
  }
}

function run(command, commandArgs, env = process.env) {
  execFileSync(command, commandArgs, { cwd: root, stdio: 'inherit', env });
}

function ensureNodeModules() {
  const stamp = path.join(root, 'node_modules', '.setup-lock-hash');
  const hash = hashOf('package.json', 'package-lock.json');
  if (!stale(stamp, hash)) return;
  // Not `npm ci`: lock files made against this registry omit other platforms' optional packages,
  // which `npm ci` refuses; `npm install` installs exactly the locked versions and leaves the lock as is.
  log('installing npm dependencies (npm install, from package-lock.json)...');
  run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error']);
  fs.writeFileSync(stamp, hash);
}

function ensurePrismaClient() {
  const stamp = path.join(root, 'generated', '.schema-hash');
  const hash = hashOf('prisma/schema.prisma');
  if (!stale(stamp, hash) && fs.existsSync(path.join(root, 'generated', 'prisma', 'client.ts'))) return;
  log('generating the Prisma client...');
  // Prisma 7's CLI insists on a schema-engine binary even for `generate`, which needs none;
  // offline it cannot download one, so point it at any existing file.
  const env = { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY || process.execPath };
  run(path.join(root, 'node_modules', '.bin', 'prisma'), ['generate'], env);
  fs.mkdirSync(path.dirname(stamp), { recursive: true });
  fs.writeFileSync(stamp, hash);
}

function canInstallSystemPackages() {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  return isRoot && fs.existsSync('/usr/bin/apt-get') && process.env.SKIP_SYSTEM_PACKAGES !== '1';
}

let aptUpdated = false;
function aptInstall(pkg) {
  log(`installing Debian package ${pkg} (apt-get, once)...`);
  try {
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    if (!aptUpdated) run('apt-get', ['update', '-qq'], env);
    aptUpdated = true;
    run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', pkg], env);
    return true;
  } catch {
    log(`could not install ${pkg}.`);
    return false;
  }
}

function ensureChromium() {
  // Browser mode prefers Debian's full chromium, new headless (platform/config.ts, defaultChromiumPath).
  if (process.env.CHROMIUM_PATH) {
    if (!fs.existsSync(process.env.CHROMIUM_PATH)) log(`no Chromium at CHROMIUM_PATH=${process.env.CHROMIUM_PATH}: browser mode will answer 503.`);
    return;
  }
  if (fs.existsSync('/usr/lib/chromium/chromium')) return;
  if (canInstallSystemPackages() && aptInstall('chromium')) return;
  if (fs.existsSync('/usr/lib/chromium/chromium-headless-shell')) {
    log('only chromium-headless-shell is installed: browser mode works but looks headless to sites (apt-get install chromium).');
    return;
  }
  log('no Chromium: browser mode will answer 503 until it is installed (apt-get install chromium) or CHROMIUM_PATH is set.');
}

/** The web console the API serves at /dashboard (docs/dashboard.md); a child process: esbuild's API is asynchronous. */
function ensureDashboard() {
  run(process.execPath, [path.join(__dirname, 'build-dashboard.cjs')]);
}

/**
 * Test-only tools: promtool checks the /metrics format, docker-compose validates docker-compose.yml,
 * chromium-headless-shell runs most browser-mode tests (test/global-setup.ts: a quarter of the full
 * browser's CPU a page), libnss3-tools' certutil trusts the TLS test's CA in Chromium.
 */
function ensureTestTools() {
  for (const [binary, pkg] of [
    ['/usr/bin/promtool', 'prometheus'],
    ['/usr/bin/docker-compose', 'docker-compose'],
    ['/usr/lib/chromium/chromium-headless-shell', 'chromium-headless-shell'],
    // certutil: NODE_EXTRA_CA_CERTS for Chromium (scrape/browser/extra-ca.ts), which api/routes/scrape-tls.test.ts exercises.
    ['/usr/bin/certutil', 'libnss3-tools'],
  ]) {
    if (fs.existsSync(binary)) continue;
    if (canInstallSystemPackages() && aptInstall(pkg)) continue;
    log(`no ${binary}: the test that needs it will fail until Debian's ${pkg} package is installed.`);
  }
}

/** http mode's Chrome-ClientHello TLS relay (docs/scraping.md "How we look to a site"); seconds with Go's caches. */
function ensureTlsRelay() {
  const dataDir = path.resolve(root, process.env.DATA_DIR || '.data');
  try {
    if (!require('./tls-relay.cjs').ensureBinary(dataDir, log)) log('no Go toolchain: http mode sends wreq-js\'s own ClientHello (no TLS relay).');
  } catch (error) {
    log(`the TLS relay did not build (${error instanceof Error ? error.message : String(error)}); http mode sends wreq-js's own ClientHello.`);
  }
}

ensureNodeModules();
ensurePrismaClient();
if (!args.has('--generate-only')) ensureDashboard();
if (!args.has('--generate-only')) ensureChromium();
if (!args.has('--generate-only')) ensureTlsRelay();
if (args.has('--for-tests')) ensureTestTools();
if (args.has('--for-tests')) {
  try {
    require('./python-tools.cjs').ensurePythonTools(log);
  } catch (error) {
    log(`${error instanceof Error ? error.message : String(error)}; the client and schema fuzz tests will fail saying so.`);
  }
}
