import { randomBytes } from 'node:crypto';
import { AppError } from '../platform/errors';
import { REDACTED, redactRequestSecrets } from '../scrape/request-redaction';
import { createSessionKeyring } from './keys';
import { isSealed, resealRequestSecrets, sealRequestSecrets, unsealRequestSecrets } from './request-secrets';

const alice = { userId: 'user-alice', kind: 'flow' } as const;
const login = {
  url: 'https://example.com/login',
  cookies: [{ name: 'sid', value: 'cookie-s3cret' }],
  headers: { Authorization: 'Bearer t0ken-s3cret', 'accept-language': 'fr' },
  actions: [{ type: 'click', selector: '#password' }, { type: 'write', text: 'pa55word-s3cret' }],
  fill_form: { fields: { '#pin': 1234 } },
  method: 'POST',
  body: { password: 'body-s3cret' },
  scrape: { headers: { 'x-api-key': 'nested-s3cret' } },
};
const SECRETS = /s3cret|1234/;

describe('sealRequestSecrets / unsealRequestSecrets', () => {
  const keyring = createSessionKeyring(randomBytes(32));

  it('seals every secret the run record redacts, and opens them again as they were (types included)', () => {
    const sealed = sealRequestSecrets(keyring, alice, login);
    const text = JSON.stringify(sealed);
    expect(text).not.toMatch(SECRETS);
    // Not even base64 of a secret.
    expect(text).not.toContain(Buffer.from('pa55word-s3cret').toString('base64').slice(0, 12));
    expect(isSealed(sealed.actions[1]!.text)).toBe(true);
    expect(isSealed(sealed.scrape.headers['x-api-key'])).toBe(true);
    expect(sealed.headers['accept-language']).toBe('fr');
    expect(sealed.actions[0]).toEqual(login.actions[0]);
    expect(unsealRequestSecrets(keyring, alice, sealed)).toEqual(login);
    // Masked for reading: the run record's shape, never the ciphertext.
    expect(redactRequestSecrets(sealed)).toEqual(redactRequestSecrets(login));
  });

  it("does not open under another account's or kind's associated data", () => {
    const sealed = sealRequestSecrets(keyring, alice, login);
    for (const other of [{ userId: 'user-mallory', kind: 'flow' as const }, { userId: alice.userId, kind: 'monitor' as const }]) {
      expect(() => unsealRequestSecrets(keyring, other, sealed)).toThrow(expect.objectContaining({ code: 'SECRET_UNREADABLE' }) as AppError);
    }
  });

  it('reads old keys after a rotation, refuses a dropped one, and re-seals under the newest', () => {
    const oldKey = randomBytes(32);
    const newKey = randomBytes(32);
    const sealed = sealRequestSecrets(createSessionKeyring(oldKey), alice, login);
    const rotated = createSessionKeyring(newKey, [oldKey]);
    expect(unsealRequestSecrets(rotated, alice, sealed)).toEqual(login);
    expect(() => unsealRequestSecrets(createSessionKeyring(newKey), alice, sealed)).toThrow(/not configured/);
    const { request: resealed, changed } = resealRequestSecrets(rotated, alice, sealed);
    expect(changed).toBe(true);
    expect(unsealRequestSecrets(createSessionKeyring(newKey), alice, resealed)).toEqual(login);
    expect(resealRequestSecrets(rotated, alice, resealed).changed).toBe(false);
  });

  it('lets clear values of rows written before sealing pass through, and seals them at a reseal', () => {
    expect(unsealRequestSecrets(keyring, alice, login)).toEqual(login);
    const { request, changed } = resealRequestSecrets(keyring, alice, login);
    expect(changed).toBe(true);
    expect(JSON.stringify(request)).not.toMatch(SECRETS);
  });

  it('keeps the stored secret where an update sends it back masked, and seals the new ones', () => {
    const stored = sealRequestSecrets(keyring, alice, login);
    const edited = { ...redactRequestSecrets(stored), url: 'https://example.com/login2', cookies: [{ name: 'sid', value: REDACTED }, { name: 'lang', value: 'new-s3cret' }] };
    const saved = sealRequestSecrets(keyring, alice, edited, stored);
    expect(JSON.stringify(saved)).not.toMatch(SECRETS);
    expect(unsealRequestSecrets(keyring, alice, saved)).toEqual({ ...login, url: 'https://example.com/login2', cookies: [{ name: 'sid', value: 'cookie-s3cret' }, { name: 'lang', value: 'new-s3cret' }] });
    // A masked value over a legacy clear one: sealed now.
    const fromClear = sealRequestSecrets(keyring, alice, redactRequestSecrets(login), login);
    expect(unsealRequestSecrets(keyring, alice, fromClear)).toEqual(login);
  });

  it('refuses a masked value with no stored secret at its position', () => {
    expect(() => sealRequestSecrets(keyring, alice, { url: 'https://example.com', headers: { Authorization: REDACTED } })).toThrow(/header:authorization.*no stored secret/);
    const stored = sealRequestSecrets(keyring, alice, login);
    expect(() => sealRequestSecrets(keyring, alice, { ...login, cookies: [{ name: 'other', value: REDACTED }] }, stored)).toThrow(expect.objectContaining({ code: 'BAD_REQUEST' }) as AppError);
  });
});
