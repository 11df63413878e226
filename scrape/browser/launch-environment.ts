/**
 * What Chromium is launched as (docs/operations.md, "Chromium's isolation"): a page is hostile
 * input, and a renderer exploit gets whatever the browser's processes hold. So Chromium gets:
 *
 *  - an environment of its own, never the worker's (DATABASE_URL, BETTER_AUTH_SECRET,
 *    SESSION_ENCRYPTION_KEY, LLM_API_KEY… stay in the worker): a PATH, a HOME and TMPDIR of its
 *    own, the locale and time zone, fontconfig's variables when set;
 *  - its sandbox on (no `--no-sandbox`) where the kernel lets it: Chromium's namespace sandbox
 *    needs unprivileged user namespaces;
 *  - when the worker runs as root (Chromium refuses a sandbox as root, and root's Chromium could
 *    read every file of the host): an unprivileged system user, `scrape-chromium`, created if
 *    missing as PostgreSQL's is (scripts/runtime/postgres.ts). A small root-owned wrapper script
 *    hands Playwright's profile folder for the launch to that user, then `setpriv` drops to it and
 *    execs Chromium; Playwright's pipe (fds 3 and 4) passes through both.
 *
 * Where no sandbox is possible, `--no-sandbox` stays and `chromiumIsolation().notice` says so in
 * one line (the worker logs it at start).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const CHROMIUM_USER = 'scrape-chromium';
const SAFE_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
/** Variables of the worker's environment Chromium may see: locale, time zone, fonts. Nothing else. */
const PASSED_THROUGH = ['LANG', 'LANGUAGE', 'LC_ALL', 'LC_CTYPE', 'TZ', 'FONTCONFIG_FILE', 'FONTCONFIG_PATH'];

export interface ChromiumIsolation {
  /** Chromium's sandbox runs (no `--no-sandbox`). */
  sandbox: boolean;
  /** The system user Chromium runs as when the worker is root; undefined: the worker's user. */
  user?: { name: string; uid: number; gid: number };
  /** HOME of Chromium's processes (its TMPDIR is under it). */
  home: string;
  /** The executable Playwright launches: a wrapper that drops to `user`, or Chromium itself. */
  wrapper?: string;
  /** One line for the worker's log when the sandbox is off; undefined when it is on. */
  notice?: string;
}

export interface ChromiumLaunch {
  executablePath: string;
  /** Playwright's `chromiumSandbox`: without it Playwright adds `--no-sandbox` itself. */
  sandbox: boolean;
  args: string[];
  env: Record<string, string>;
}

const isolations = new Map<string, ChromiumIsolation>();

function userIds(name: string): { uid: number; gid: number } | undefined {
  try {
    const uid = Number(execFileSync('id', ['-u', name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
    const gid = Number(execFileSync('id', ['-g', name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
    return Number.isInteger(uid) && Number.isInteger(gid) ? { uid, gid } : undefined;
  } catch {
    return undefined;
  }
}

/** The browser user, created if missing (a system user: no login, no home of its own). */
function browserUser(): { name: string; uid: number; gid: number } | undefined {
  let ids = userIds(CHROMIUM_USER);
  if (!ids) {
    spawnSync('useradd', ['--system', '--user-group', '--no-create-home', '--home-dir', '/nonexistent', '--shell', '/usr/sbin/nologin', CHROMIUM_USER], { stdio: 'ignore' });
    ids = userIds(CHROMIUM_USER);
  }
  if (ids) return { name: CHROMIUM_USER, ...ids };
  const nobody = userIds('nobody');
  return nobody ? { name: 'nobody', ...nobody } : undefined;
}

const shellQuote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

/** Can this user make the namespaces Chromium's sandbox makes (user, pid, net)? */
function namespacesAllowed(user: { uid: number; gid: number } | undefined): boolean {
  const probe = ['unshare', '--user', '--pid', '--net', '--fork', 'true'];
  const [command, ...args] = user ? ['setpriv', `--reuid=${user.uid}`, `--regid=${user.gid}`, '--clear-groups', '--', ...probe] : probe;
  return spawnSync(command!, args, { stdio: 'ignore', timeout: 10_000, env: { PATH: SAFE_PATH } }).status === 0;
}

/** Decided once per process: the user, the folders, the wrapper, whether the sandbox can run. */
export function chromiumIsolation(executablePath: string): ChromiumIsolation {
  let isolation = isolations.get(executablePath);
  if (isolation) return isolation;
  isolation = decideIsolation(executablePath);
  isolations.set(executablePath, isolation);
  return isolation;
}

function decideIsolation(executablePath: string): ChromiumIsolation {
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  // Root-owned and world-traversable: the wrapper in it must not be writable by the browser user.
  const base = mkdtempSync(path.join(os.tmpdir(), 'scrape-chromium-'));
  chmodSync(base, 0o755);
  const home = path.join(base, 'home');
  mkdirSync(path.join(home, 'tmp'), { recursive: true, mode: 0o700 });
  const user = root ? browserUser() : undefined;
  if (root && !user) {
    return { sandbox: false, home, notice: `Chromium runs as root without its sandbox: no unprivileged user could be had (useradd ${CHROMIUM_USER} failed); see docs/operations.md, "Chromium's isolation"` };
  }
  let wrapper: string | undefined;
  if (user) {
    for (const dir of [home, path.join(home, 'tmp')]) chownSync(dir, user.uid, user.gid);
    wrapper = path.join(base, 'chromium');
    const ids = `--reuid=${user.uid} --regid=${user.gid} --clear-groups`;
    writeFileSync(
      wrapper,
      [
        '#!/bin/sh',
        '# Written by scrape/browser/launch-environment.ts: Chromium as an unprivileged user.',
        '# Playwright makes the profile folder (root-owned, 0700) just before the launch: hand it over.',
        'for arg in "$@"; do',
        `  case "$arg" in --user-data-dir=*) chown -R ${user.uid}:${user.gid} "\${arg#--user-data-dir=}" ;; esac`,
        'done',
        `exec setpriv ${ids} --inh-caps=-all -- ${shellQuote(executablePath)} "$@"`,
        '',
      ].join('\n'),
      { mode: 0o755 },
    );
  }
  const sandbox = namespacesAllowed(user);
  return {
    sandbox,
    ...(user ? { user } : {}),
    home,
    ...(wrapper ? { wrapper } : {}),
    ...(sandbox ? {} : { notice: `Chromium runs without its sandbox: this kernel refuses unprivileged user namespaces${user ? ` (Chromium runs as the ${user.name} user)` : ''}; see docs/operations.md, "Chromium's isolation"` }),
  };
}

/** The environment Chromium's processes get: nothing of the worker's but locale, time zone and fonts. */
// Not configuration: the few variables of the process's own environment that Chromium is given (PASSED_THROUGH).
// eslint-disable-next-line no-restricted-properties
export function chromiumEnvironment(home: string, from: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const env: Record<string, string> = {
    PATH: SAFE_PATH,
    HOME: home,
    TMPDIR: path.join(home, 'tmp'),
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
    LANG: 'C.UTF-8',
  };
  for (const name of PASSED_THROUGH) {
    const value = from[name];
    if (value) env[name] = value;
  }
  return env;
}

/**
 * The executable, arguments and environment of one launch. `withoutSandbox`: the benchmark's
 * baseline (bench/browser-sandbox.ts) only; the user and the environment stay as they are.
 */
export function chromiumLaunch(executablePath: string, args: readonly string[], options: { withoutSandbox?: boolean } = {}): ChromiumLaunch {
  const chosen = chromiumIsolation(executablePath);
  const sandbox = chosen.sandbox && options.withoutSandbox !== true;
  // With the sandbox available, `--no-sandbox` (in CHROMIUM_ARGS for the machines without one) goes.
  const launchArgs = sandbox ? args.filter((arg) => arg !== '--no-sandbox') : args.includes('--no-sandbox') ? [...args] : [...args, '--no-sandbox'];
  return { executablePath: chosen.wrapper ?? executablePath, sandbox, args: launchArgs, env: chromiumEnvironment(chosen.home) };
}
