/**
 * The signature scheme and the secrets at rest (docs/webhooks.md): a header the Stripe SDK
 * verifies (and refuses when the body, secret or age is wrong), the plain Node check the docs
 * show, and the encrypted form of a secret (readable back with the key only).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import Stripe from 'stripe';
import { decryptSecret, deriveSecretKey, encryptSecret, generateSigningSecret, signatureHeader } from './signing';

const stripe = new Stripe('sk_test_signature_checks_only');

describe('signatureHeader', () => {
  const secret = generateSigningSecret();
  const body = JSON.stringify({ id: 'evt_1', type: 'scrape.completed', created_at: new Date().toISOString(), data: { id: 'r1' } });

  it('is verified by the Stripe SDK, which refuses another body, another secret or an old timestamp', () => {
    const now = Math.floor(Date.now() / 1000);
    const header = signatureHeader(secret, body, now);
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(stripe.webhooks.constructEvent(body, header, secret)).toMatchObject({ id: 'evt_1', type: 'scrape.completed' });
    expect(stripe.webhooks.signature!.verifyHeader(body, header, secret)).toBe(true);
    expect(() => stripe.webhooks.constructEvent(`${body} `, header, secret)).toThrow();
    expect(() => stripe.webhooks.constructEvent(body, header, generateSigningSecret())).toThrow();
    expect(() => stripe.webhooks.constructEvent(body, signatureHeader(secret, body, now - 3600), secret)).toThrow(/tolerance/i);
  });

  it('is checked by the plain Node code of docs/webhooks.md', () => {
    const header = signatureHeader(secret, body, 1_700_000_000);
    const parts = Object.fromEntries(header.split(',').map((p) => p.split('=') as [string, string]));
    const expected = createHmac('sha256', secret).update(`${parts.t}.${body}`).digest();
    expect(timingSafeEqual(expected, Buffer.from(parts.v1!, 'hex'))).toBe(true);
  });
});

describe('secrets at rest', () => {
  it('round-trips under the derived key, differs on each encryption, and fails under another key', () => {
    const key = deriveSecretKey('a'.repeat(40));
    const secret = generateSigningSecret();
    const stored = encryptSecret(key, secret);
    expect(stored).not.toContain(secret);
    expect(encryptSecret(key, secret)).not.toBe(stored);
    expect(decryptSecret(key, stored)).toBe(secret);
    expect(() => decryptSecret(deriveSecretKey('b'.repeat(40)), stored)).toThrow();
  });
});
