/**
 * NODE_EXTRA_CA_CERTS for Chromium (docs/scraping.md "How we look to a site", "Certificates").
 *
 * Chromium on Linux does not read Node's variable: it trusts the system roots plus the NSS
 * database in `$HOME/.pki/nssdb`. With NODE_EXTRA_CA_CERTS naming certificates the system bundle
 * lacks, that database is made once in Chromium's own HOME (launch-environment.ts: never the
 * worker's) with `certutil` (Debian's libnss3-tools), holding them as trusted CAs, and handed to
 * the user Chromium runs as. Without certutil the browser trusts the system roots only, and a
 * warning says so once.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { tlsTrustEnvironment } from '../../platform/config';

const SYSTEM_BUNDLE = '/etc/ssl/certs/ca-certificates.crt';
const prepared = new Set<string>();

function rawPemsOf(file: string): string[] {
  if (!fs.existsSync(file)) return [];
  return fs.readFileSync(file, 'utf8').match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
}

/** Adds NODE_EXTRA_CA_CERTS to the NSS database under `home` (once per home), owned by `owner` when given. */
export function trustExtraCas(home: string, owner?: { uid: number; gid: number }): void {
  const file = tlsTrustEnvironment.extraCaCertsFile();
  if (!file || prepared.has(home)) return;
  prepared.add(home);
  try {
    // Certificates the system already trusts (e.g. NODE_EXTRA_CA_CERTS naming the system bundle) need no database.
    const system = new Set(rawPemsOf(SYSTEM_BUNDLE).map((pem) => pem.replace(/\s+/g, '')));
    const pems = rawPemsOf(file).filter((pem) => !system.has(pem.replace(/\s+/g, '')));
    if (pems.length === 0) return;
    const dir = path.join(home, '.pki', 'nssdb');
    const db = `sql:${dir}`;
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    execFileSync('certutil', ['-N', '-d', db, '--empty-password'], { stdio: 'ignore', timeout: 10_000 });
    pems.forEach((pem, i) => {
      const certFile = path.join(home, `extra-${i}.pem`);
      fs.writeFileSync(certFile, `${pem}\n`);
      execFileSync('certutil', ['-A', '-d', db, '-n', `node-extra-ca-${i}`, '-t', 'C,,', '-i', certFile], { stdio: 'ignore', timeout: 10_000 });
    });
    if (owner) for (const entry of [path.join(home, '.pki'), dir, ...fs.readdirSync(dir).map((name) => path.join(dir, name))]) fs.chownSync(entry, owner.uid, owner.gid);
  } catch (err) {
    const reason = (err as { code?: string }).code === 'ENOENT' ? 'certutil (libnss3-tools) is not installed' : (err as Error).message.split('\n')[0];
    process.emitWarning(`NODE_EXTRA_CA_CERTS is not trusted by Chromium: ${reason}`);
  }
}
