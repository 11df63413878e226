import { AppError } from './errors';
import {
  checkTarget,
  createGuardedLookup,
  isPrivateAddress,
  matchesBlacklist,
  normalizeHost,
  parseHttpUrl,
  resolvePublicHost,
} from './target-guard';
import type { LookupAddress } from './target-guard';

describe('isPrivateAddress', () => {
  it.each([
    '127.0.0.1', '127.255.255.254', '10.0.0.1', '10.255.255.255', '172.16.0.1', '172.31.255.255',
    '192.168.1.1', '169.254.169.254', '169.254.0.1', '100.64.0.1', '100.127.255.255', '0.0.0.0', '0.1.2.3',
    '224.0.0.1', '239.255.255.250', '255.255.255.255', '240.0.0.1', '192.0.2.10', '198.18.0.1',
  ])('blocks IPv4 %s', (ip) => expect(isPrivateAddress(ip)).toBe(true));

  it.each(['8.8.8.8', '1.1.1.1', '93.184.216.34', '172.15.255.255', '172.32.0.1', '100.63.255.255', '100.128.0.1', '169.253.255.255', '11.0.0.1', '192.169.0.1'])(
    'allows public IPv4 %s',
    (ip) => expect(isPrivateAddress(ip)).toBe(false),
  );

  it.each([
    '::1', '::', '0:0:0:0:0:0:0:1', '[::1]', 'fc00::1', 'fd12:3456:789a::1', 'fe80::1', 'fe80::1%eth0', 'febf::1',
    'ff02::1', 'fec0::1', '2001:db8::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.1', '::FFFF:169.254.169.254',
    '0:0:0:0:0:ffff:192.168.0.1', '::127.0.0.1', '64:ff9b::10.0.0.1', '2002:7f00:1::', '2001:0:4136:e378::1',
  ])('blocks IPv6 %s', (ip) => expect(isPrivateAddress(ip)).toBe(true));

  it.each(['2606:4700:4700::1111', '2001:4860:4860::8888', '::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::1'])(
    'allows public IPv6 %s',
    (ip) => expect(isPrivateAddress(ip)).toBe(false),
  );

  it('fails closed on anything that is not an IP address', () => {
    expect(isPrivateAddress('example.com')).toBe(true);
    expect(isPrivateAddress('')).toBe(true);
    expect(isPrivateAddress('1.2.3')).toBe(true);
  });
});

describe('matchesBlacklist', () => {
  const patterns = ['evil.com', '*.tracker.net', '.dot.org', 'https://Url-Pattern.io/some/path', 'bücher.de', '10.1.2.3'];

  it('matches exact hosts only for exact patterns', () => {
    expect(matchesBlacklist('evil.com', patterns)).toBe(true);
    expect(matchesBlacklist('www.evil.com', patterns)).toBe(false);
    expect(matchesBlacklist('notevil.com', patterns)).toBe(false);
  });

  it('matches subdomains at any depth and the apex for *.domain', () => {
    expect(matchesBlacklist('a.tracker.net', patterns)).toBe(true);
    expect(matchesBlacklist('a.b.c.tracker.net', patterns)).toBe(true);
    expect(matchesBlacklist('tracker.net', patterns)).toBe(true);
    expect(matchesBlacklist('eviltracker.net', patterns)).toBe(false);
    expect(matchesBlacklist('x.dot.org', patterns)).toBe(true);
    expect(matchesBlacklist('dot.org', patterns)).toBe(true);
  });

  it('is case-insensitive and trailing-dot safe on both sides', () => {
    expect(matchesBlacklist('EVIL.COM.', patterns)).toBe(true);
    expect(matchesBlacklist('Sub.Tracker.NET.', patterns)).toBe(true);
    expect(matchesBlacklist('evil.com', ['EVIL.com.'])).toBe(true);
    expect(matchesBlacklist('a.evil.com', ['*.Evil.Com.'])).toBe(true);
  });

  it('accepts URL patterns, IDN and IP hosts', () => {
    expect(matchesBlacklist('url-pattern.io', patterns)).toBe(true);
    expect(matchesBlacklist('xn--bcher-kva.de', patterns)).toBe(true);
    expect(matchesBlacklist('10.1.2.3', patterns)).toBe(true);
    expect(matchesBlacklist('10.1.2.4', patterns)).toBe(false);
  });

  it('never matches with no or blank patterns', () => {
    expect(matchesBlacklist('evil.com', [])).toBe(false);
    expect(matchesBlacklist('evil.com', ['', '  ', '*.'])).toBe(false);
  });
});

describe('URL checks', () => {
  it('normalises hosts', () => {
    expect(normalizeHost('WWW.Example.COM.')).toBe('www.example.com');
    expect(normalizeHost('[::1]')).toBe('::1');
  });

  it.each(['ftp://example.com/', 'file:///etc/passwd', 'javascript:alert(1)', 'not a url', 'data:text/html,hi'])(
    'rejects %s with INVALID_URL',
    (url) => expect(() => parseHttpUrl(url)).toThrow(expect.objectContaining({ code: 'INVALID_URL', status: 400 })),
  );

  it('rejects blacklisted hosts and private IP literals, allows them when configured', async () => {
    const isBlacklisted = (h: string) => matchesBlacklist(h, ['*.blocked.test']);
    await expect(checkTarget('https://a.blocked.test/x', { allowPrivateTargets: true, isBlacklisted })).rejects.toMatchObject({ code: 'BLACKLISTED', status: 403 });
    await expect(checkTarget('http://169.254.169.254/latest/meta-data', { allowPrivateTargets: false })).rejects.toMatchObject({ code: 'PRIVATE_TARGET', status: 403 });
    await expect(checkTarget('http://[::ffff:127.0.0.1]:8080/', { allowPrivateTargets: false })).rejects.toMatchObject({ code: 'PRIVATE_TARGET' });
    // WHATWG URL normalises numeric IPv4 spellings before we look at them.
    await expect(checkTarget('http://2130706433/', { allowPrivateTargets: false })).rejects.toMatchObject({ code: 'PRIVATE_TARGET' });
    await expect(checkTarget('http://0x7f.1/', { allowPrivateTargets: false })).rejects.toMatchObject({ code: 'PRIVATE_TARGET' });
    await expect(checkTarget('http://127.0.0.1/', { allowPrivateTargets: true })).resolves.toBeInstanceOf(URL);
    // Host names are not resolved here (that happens at connect time).
    await expect(checkTarget('https://example.com/', { allowPrivateTargets: false })).resolves.toBeInstanceOf(URL);
  });

  it('refuses localhost and every *.localhost name up front (RFC 6761), whatever DNS says', async () => {
    for (const url of ['http://localhost/', 'http://LOCALHOST./x', 'http://app.localhost:3000/', 'https://a.b.localhost/', 'http://admin.localhost./']) {
      await expect(checkTarget(url, { allowPrivateTargets: false })).rejects.toMatchObject({ code: 'PRIVATE_TARGET', status: 403 });
    }
    // Only the label `localhost` itself: look-alikes are ordinary names.
    for (const url of ['http://localhost.example.com/', 'http://notlocalhost/', 'http://mylocalhost.test/']) {
      await expect(checkTarget(url, { allowPrivateTargets: false })).resolves.toBeInstanceOf(URL);
    }
    await expect(checkTarget('http://app.localhost/', { allowPrivateTargets: true })).resolves.toBeInstanceOf(URL);
  });
});

describe('guarded DNS lookup', () => {
  const fake = (addresses: LookupAddress[]) => (_h: string, _o: unknown, cb: (e: NodeJS.ErrnoException | null, a: LookupAddress[]) => void) =>
    cb(null, addresses);

  function run(addresses: LookupAddress[], all: boolean, allowPrivateTargets = false) {
    const lookup = createGuardedLookup({ allowPrivateTargets, lookup: fake(addresses) });
    return new Promise<{ err: unknown; address: unknown; family?: number }>((resolve) =>
      lookup('target.test', { all }, (err, address, family) => resolve({ err, address, family })),
    );
  }

  it('passes public addresses through, in both callback shapes', async () => {
    const addrs = [{ address: '93.184.216.34', family: 4 }, { address: '2606:2800:220:1::1', family: 6 }];
    await expect(run(addrs, true)).resolves.toMatchObject({ err: null, address: addrs });
    await expect(run(addrs, false)).resolves.toMatchObject({ err: null, address: '93.184.216.34', family: 4 });
  });

  it('rejects when any resolved address is private (DNS rebinding / mixed answers)', async () => {
    const res = await run([{ address: '93.184.216.34', family: 4 }, { address: '169.254.169.254', family: 4 }], true);
    expect(res.err).toBeInstanceOf(AppError);
    expect(res.err).toMatchObject({ code: 'PRIVATE_TARGET' });
    const v6 = await run([{ address: '::ffff:127.0.0.1', family: 6 }], false);
    expect(v6.err).toMatchObject({ code: 'PRIVATE_TARGET' });
  });

  it('allows private addresses when allowPrivateTargets', async () => {
    await expect(run([{ address: '127.0.0.1', family: 4 }], false, true)).resolves.toMatchObject({ err: null, address: '127.0.0.1' });
  });

  it('resolvePublicHost checks real resolution of localhost', async () => {
    await expect(resolvePublicHost('localhost', { allowPrivateTargets: false })).rejects.toMatchObject({ code: 'PRIVATE_TARGET' });
    await expect(resolvePublicHost('127.0.0.1', { allowPrivateTargets: false })).rejects.toMatchObject({ code: 'PRIVATE_TARGET' });
    const ok = await resolvePublicHost('localhost', { allowPrivateTargets: true });
    expect(ok.length).toBeGreaterThan(0);
  });
});

describe('names under localhost', () => {
  it('resolve to loopback without DNS (RFC 6761), and are refused as such unless private targets are allowed', async () => {
    await expect(resolvePublicHost('blog.localhost', { allowPrivateTargets: true })).resolves.toEqual([{ address: '127.0.0.1', family: 4 }]);
    await expect(resolvePublicHost('a.b.localhost.', { allowPrivateTargets: false })).rejects.toMatchObject({ code: 'PRIVATE_TARGET' });
  });
});
