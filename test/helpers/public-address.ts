/**
 * A local address that the private-address guard (platform/target-guard.ts) counts as public, for the tests
 * that run the service with the guard on (ALLOW_PRIVATE_TARGETS=false): a fixture server bound to
 * it stands for a site on the internet, and its redirects and links to loopback, private and
 * link-local addresses are what the guard must refuse. The guard itself is not touched: no test
 * switch, no allow-list.
 *
 * The address is added to the loopback interface as a /32 (`ip addr add <a>/32 dev lo label
 * lo:guardtest`, iproute2), so it is local to this host and reachable by every process of the
 * stack and by Chromium, and removed when the test is done (also when its process exits). A dummy
 * interface would do the same, but some sandboxes have none (gVisor); `lo` exists everywhere.
 *
 * The range is 192.175.48.0/24 (RFC 7534, AS112 "direct delegation"): globally routed, so public
 * to the guard, and a sink for reverse-DNS queries that no test talks to, so shadowing one of its
 * addresses on this host for a test's duration costs nothing. A free address is picked at random
 * (another test file may hold one at the same time).
 *
 * It needs Linux and root (CAP_NET_ADMIN): without them `addPublicAddress` throws saying so, and
 * the test fails; it never passes silently.
 */
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { isPrivateAddress } from '../../platform/target-guard';

const run = promisify(execFile);
const RANGE = '192.175.48';
const LABEL = 'lo:guardtest';

export interface PublicAddress {
  /** The IPv4 address, e.g. 192.175.48.77. */
  address: string;
  /** Removes the address from `lo` (idempotent). */
  release(): Promise<void>;
}

export async function addPublicAddress(): Promise<PublicAddress> {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) {
    throw new Error(
      'this test needs a public-range address on the loopback interface (test/helpers/public-address.ts), which only root ' +
        `on Linux can add (ip addr add ... dev lo); this process is uid ${process.getuid?.() ?? '?'} on ${process.platform}. Run it as root.`,
    );
  }
  let lastError = '';
  for (let attempt = 0; attempt < 20; attempt++) {
    const address = `${RANGE}.${1 + Math.floor(Math.random() * 254)}`;
    if (isPrivateAddress(address)) throw new Error(`${address} is private to the guard: this helper's range no longer stands for a public site`);
    try {
      await run('ip', ['-4', 'addr', 'add', `${address}/32`, 'dev', 'lo', 'label', LABEL]);
    } catch (error) {
      lastError = (error as { stderr?: string }).stderr?.trim() || String(error);
      // Another test holds this one: try another.
      if (/exists|already assigned/i.test(lastError)) continue;
      throw new Error(`cannot add ${address}/32 to lo (this needs iproute2's \`ip\` and CAP_NET_ADMIN): ${lastError}`);
    }
    let released = false;
    const releaseNow = () => {
      if (released) return;
      released = true;
      try {
        execFileSync('ip', ['-4', 'addr', 'del', `${address}/32`, 'dev', 'lo'], { stdio: 'ignore' });
      } catch {
        // Already gone.
      }
    };
    process.once('exit', releaseNow);
    return {
      address,
      async release() {
        process.off('exit', releaseNow);
        if (released) return;
        released = true;
        await run('ip', ['-4', 'addr', 'del', `${address}/32`, 'dev', 'lo']).catch(() => undefined);
      },
    };
  }
  throw new Error(`no free address in ${RANGE}.0/24 on lo after 20 tries: ${lastError}`);
}
