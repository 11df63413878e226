/**
 * NODE_EXTRA_CA_CERTS for Chromium (docs/scraping.md "How we look to a site", "Certificates").
 *
 * Chromium on Linux does not read Node's variable: it trusts the system roots plus the NSS
 * database in `$HOME/.pki/nssdb`. With NODE_EXTRA_CA_CERTS set, a database of its own is made
 * once per process in a temporary home (certutil, Debian's libnss3-tools) holding those
 * certificates as trusted CAs, and Chromium is launched with HOME pointing there. Without
 * certutil the browser trusts the system roots only, and a warning says so once.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { tlsTrustEnvironment } from '../../platform/config';

let prepared: { env: Record<string, string> | undefined; warning: string | undefined } | undefined;

/** The environment to launch Chromium with (undefined: the worker's own), and a warning to log once if the CA could not be added. */
export function chromiumTrustEnv(): { env: Record<string, string> | undefined; warning: string | undefined } {
  if (!prepared) {
    prepared = prepare();
    if (prepared.warning) process.emitWarning(prepared.warning);
  }
  return prepared;
}

function prepare(): { env: Record<string, string> | undefined; warning: string | undefined } {
  const file = tlsTrustEnvironment.extraCaCertsFile();
  if (!file) return { env: undefined, warning: undefined };
  try {
    // Certificates the system already trusts (e.g. NODE_EXTRA_CA_CERTS naming the system bundle) need no database.
    const system = new Set(pemsOf(SYSTEM_BUNDLE));
    const pems = rawPemsOf(file).filter((pem) => !system.has(pem.replace(/\s+/g, '')));
    if (pems.length === 0) return { env: undefined, warning: undefined };
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'chromium-home-'));
    const db = `sql:${path.join(home, '.pki', 'nssdb')}`;
    fs.mkdirSync(path.join(home, '.pki', 'nssdb'), { recursive: true, mode: 0o700 });
    execFileSync('certutil', ['-N', '-d', db, '--empty-password'], { stdio: 'ignore', timeout: 10_000 });
    pems.forEach((pem, i) => {
      const certFile = path.join(home, `extra-${i}.pem`);
      fs.writeFileSync(certFile, `${pem}\n`);
      execFileSync('certutil', ['-A', '-d', db, '-n', `node-extra-ca-${i}`, '-t', 'C,,', '-i', certFile], { stdio: 'ignore', timeout: 10_000 });
    });
    return { env: tlsTrustEnvironment.withOverrides({ HOME: home }), warning: undefined };
  } catch (err) {
    const reason = (err as { code?: string }).code === 'ENOENT' ? 'certutil (libnss3-tools) is not installed' : (err as Error).message.split('\n')[0];
    return { env: undefined, warning: `NODE_EXTRA_CA_CERTS is not trusted by Chromium: ${reason}` };
  }
}

const SYSTEM_BUNDLE = '/etc/ssl/certs/ca-certificates.crt';

function rawPemsOf(file: string): string[] {
  if (!fs.existsSync(file)) return [];
  return fs.readFileSync(file, 'utf8').match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
}

/** The certificates of a PEM bundle, whitespace removed (to compare them). */
function pemsOf(file: string): string[] {
  return rawPemsOf(file).map((pem) => pem.replace(/\s+/g, ''));
}
