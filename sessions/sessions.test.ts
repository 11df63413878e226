/** Unit tests of the session rules: the merge of concurrent saves, encryption and key rotation, the http cookie jar. */
import { randomBytes } from 'node:crypto';
import type { StateCookie, StorageState } from '../scrape/cookies';
import { createRequestCookieJar } from '../scrape/http/cookie-jar';
import { createSessionKeyring, decryptState, encryptState } from './keys';
import { mergeSessionState, sessionFacts } from './state';

const c = (name: string, value: string, domain = 'example.com', path = '/'): StateCookie => ({ name, value, domain, path, expires: -1, httpOnly: false, secure: false, sameSite: 'Lax' });
const names = (s: StorageState) => s.cookies.map((x) => `${x.name}=${x.value}@${x.domain}${x.path}`).sort();

describe('mergeSessionState (last writer wins per cookie)', () => {
  it('applies what the scrape changed, removes what it removed, keeps what others saved meanwhile', () => {
    const base: StorageState = { cookies: [c('keep', '1'), c('change', 'old'), c('logout', 'x')], origins: [] };
    const stored: StorageState = { cookies: [...base.cookies, c('other', 'saved-meanwhile')], origins: [] };
    const final: StorageState = { cookies: [c('keep', '1'), c('change', 'new'), c('added', 'a')], origins: [] };
    expect(names(mergeSessionState(stored, base, final))).toEqual(['added=a@example.com/', 'change=new@example.com/', 'keep=1@example.com/', 'other=saved-meanwhile@example.com/']);
  });

  it('a cookie the scrape did not change does not overwrite a newer stored one', () => {
    const base: StorageState = { cookies: [c('sid', 'v1')], origins: [] };
    const stored: StorageState = { cookies: [c('sid', 'v2')], origins: [] };
    expect(names(mergeSessionState(stored, base, base))).toEqual(['sid=v2@example.com/']);
  });

  it('cookies with the same name on another domain or path are other cookies', () => {
    const final: StorageState = { cookies: [c('a', '1', 'x.test'), c('a', '2', '.x.test'), c('a', '3', 'x.test', '/p')], origins: [] };
    expect(mergeSessionState({ cookies: [], origins: [] }, { cookies: [], origins: [] }, final).cookies).toHaveLength(3);
  });

  it('merges local storage item by item', () => {
    const o = (items: Record<string, string>) => [{ origin: 'https://x.test', localStorage: Object.entries(items).map(([name, value]) => ({ name, value })) }];
    const merged = mergeSessionState({ cookies: [], origins: o({ a: '1', b: 'other' }) }, { cookies: [], origins: o({ a: '1', gone: 'x' }) }, { cookies: [], origins: o({ a: '2' }) });
    expect(merged.origins).toEqual(o({ a: '2', b: 'other' }));
  });

  it('facts: domains without the dot, the latest expiry', () => {
    const facts = sessionFacts({ cookies: [{ ...c('a', '1', '.x.test'), expires: 2_000_000_000 }, c('b', '2', 'y.test')], origins: [{ origin: 'https://z.test', localStorage: [] }] });
    expect(facts).toEqual({ domains: ['x.test', 'y.test', 'z.test'], cookieCount: 2, expiresAt: new Date(2_000_000_000_000) });
  });
});

describe('encryption and rotation', () => {
  const [oldKey, newKey] = [randomBytes(32), randomBytes(32)];

  it('a row written under the old key is read after the rotation; new writes use the new key', () => {
    const row = encryptState(createSessionKeyring(oldKey), 'user-1', 'login', '{"cookies":[]}');
    expect(row.ciphertext.toString('utf8')).not.toContain('cookies');
    const rotated = createSessionKeyring(newKey, [oldKey]);
    expect(decryptState(rotated, 'user-1', 'login', row)).toBe('{"cookies":[]}');
    expect(encryptState(rotated, 'user-1', 'login', 'x').keyId).toBe(rotated.current.id);
    expect(rotated.current.id).not.toBe(row.keyId);
    expect(() => decryptState(createSessionKeyring(newKey), 'user-1', 'login', row)).toThrow(/not configured/);
  });

  it('a row moved to another account or name, or altered, does not decrypt', () => {
    const keyring = createSessionKeyring(newKey);
    const row = encryptState(keyring, 'user-1', 'login', 'secret');
    expect(() => decryptState(keyring, 'user-2', 'login', row)).toThrow();
    expect(() => decryptState(keyring, 'user-1', 'other', row)).toThrow();
    const altered = { ...row, ciphertext: Buffer.from(row.ciphertext.map((b, i) => (i === 0 ? b ^ 1 : b))) };
    expect(() => decryptState(keyring, 'user-1', 'login', altered)).toThrow();
  });
});

describe('the http cookie jar', () => {
  it('sends cookies by domain and path, takes Set-Cookie, reads back as a storage state', () => {
    const jar = createRequestCookieJar({ cookies: [c('host_only', '1', 'a.test'), c('domain', '2', '.a.test'), c('path', '3', 'a.test', '/p'), { ...c('secure', '4', 'a.test'), secure: true }], origins: [] });
    expect(jar.headerFor(new URL('http://a.test/'))).toBe('host_only=1; domain=2');
    expect(jar.headerFor(new URL('http://sub.a.test/'))).toBe('domain=2');
    expect(jar.headerFor(new URL('https://a.test/p/x')).split('; ').sort()).toEqual(['domain=2', 'host_only=1', 'path=3', 'secure=4']);
    expect(jar.headerFor(new URL('http://b.test/'))).toBe('');
    jar.receive(new URL('http://a.test/login'), ['sid=s1; Path=/; HttpOnly; Max-Age=60', 'evil=1; Domain=b.test']);
    const state = jar.state();
    expect(state.cookies.find((x) => x.name === 'sid')).toMatchObject({ value: 's1', domain: 'a.test', path: '/', httpOnly: true });
    expect(state.cookies.find((x) => x.name === 'sid')!.expires).toBeGreaterThan(Date.now() / 1000);
    expect(state.cookies.some((x) => x.name === 'evil')).toBe(false);
    expect(state.cookies.find((x) => x.name === 'domain')!.domain).toBe('.a.test');
  });
});
