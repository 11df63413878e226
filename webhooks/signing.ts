/**
 * Signing secrets of event webhooks (docs/webhooks.md, "Signatures" and "Secrets at rest").
 *
 * - A secret is `whsec_` + 32 random bytes (base64url), used as the HMAC key as is (the Stripe SDK
 *   does the same with the string it is given, so `stripe.webhooks.constructEvent` verifies ours).
 * - The header is `x-signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`.
 * - At rest a secret is encrypted with AES-256-GCM under a key derived (HKDF-SHA256) from the
 *   server secret (BETTER_AUTH_SECRET, or DATA_DIR/auth-secret outside production): unlike an API
 *   key, which is only ever compared and so is stored as a hash, a signing secret must be read
 *   back to sign each delivery. Changing the server secret makes stored secrets unreadable
 *   (deliveries then fail; endpoints must be registered again): docs/webhooks.md says so.
 */
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';

export const SIGNATURE_HEADER = 'x-signature';
const CIPHER = 'aes-256-gcm';
/** Version tag of the stored form, so the scheme can change later. */
const STORED_PREFIX = 'v1:';

export function generateSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/** The encryption key of stored secrets, from the server secret. */
export function deriveSecretKey(serverSecret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', serverSecret, 'webhook-signing-secrets', 'scrape-api webhook secret encryption v1', 32));
}

/** `v1:<iv>.<tag>.<ciphertext>` (base64url parts). */
export function encryptSecret(key: Buffer, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv(CIPHER, key, iv);
  const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return `${STORED_PREFIX}${iv.toString('base64url')}.${cipher.getAuthTag().toString('base64url')}.${ciphertext.toString('base64url')}`;
}

export function decryptSecret(key: Buffer, stored: string): string {
  if (!stored.startsWith(STORED_PREFIX)) throw new Error('unknown webhook secret format');
  const [iv, tag, ciphertext] = stored.slice(STORED_PREFIX.length).split('.');
  if (!iv || !tag || ciphertext === undefined) throw new Error('malformed webhook secret');
  const decipher = createDecipheriv(CIPHER, key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
}

/** The `x-signature` value of `body` sent at `timestamp` (unix seconds). */
export function signatureHeader(secret: string, body: string, timestamp: number): string {
  const v1 = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return `t=${timestamp},v1=${v1}`;
}

/** Firecrawl's signature header (webhooks/firecrawl.ts): sent beside ours on a compatible job's deliveries. */
export const FIRECRAWL_SIGNATURE_HEADER = 'x-firecrawl-signature';

/** `sha256=<hex HMAC-SHA256 of the raw body>`, keyed with the same secret as `x-signature` (Firecrawl's scheme: no timestamp). */
export function firecrawlSignature(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}
