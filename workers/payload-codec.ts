/**
 * The Temporal payload keys and the codec server's operator credential, from configuration
 * (docs/operations.md, "Temporal payload encryption"). Every process that talks to Temporal —
 * the workers, the API (its client and its in-process worker), the replay tests — builds its
 * data converter here, so all of them encrypt and decrypt with the same keys.
 *
 * As for stored sessions (sessions/keys.ts): TEMPORAL_PAYLOAD_KEY (32 bytes, base64), else a key
 * derived with HKDF-SHA256 from the server secret (BETTER_AUTH_SECRET, or DATA_DIR/auth-secret
 * outside production), so `npm start` needs nothing set; TEMPORAL_PAYLOAD_KEYS_OLD keeps what was
 * written under earlier keys readable.
 */
import { hkdfSync } from 'node:crypto';
import type { DataConverter } from '@temporalio/common';
import { resolveAuthSecret } from '../accounts/auth-config';
import type { Config } from '../platform/config';
import { createPayloadKeyring, encryptingDataConverter, type PayloadKeyring } from '../platform/temporal-payload-codec';

export function payloadKeyringFromConfig(config: Config): PayloadKeyring {
  const current = config.TEMPORAL_PAYLOAD_KEY && config.TEMPORAL_PAYLOAD_KEY !== 'off'
    ? Buffer.from(config.TEMPORAL_PAYLOAD_KEY, 'base64')
    : Buffer.from(hkdfSync('sha256', resolveAuthSecret(config), 'temporal-payloads', 'scrape-api temporal payload encryption v1', 32));
  return createPayloadKeyring(current, config.TEMPORAL_PAYLOAD_KEYS_OLD.map((k) => Buffer.from(k, 'base64')));
}

/**
 * The data converter of every Temporal client and worker of the service. TEMPORAL_PAYLOAD_KEY=off
 * (refused in production) is the benchmark's baseline only (bench/payload-codec-e2e.ts): no codec.
 */
export function temporalDataConverter(config: Config): DataConverter {
  if (config.TEMPORAL_PAYLOAD_KEY === 'off') return {};
  return encryptingDataConverter(payloadKeyringFromConfig(config));
}

/**
 * The codec server's credential: OPERATOR_TOKEN, else (outside production) one derived from the
 * server secret, which `npm start` hands to its bundled Temporal UI; undefined = codec server off.
 */
export function operatorToken(config: Config): string | undefined {
  if (config.OPERATOR_TOKEN) return config.OPERATOR_TOKEN;
  if (config.NODE_ENV === 'production') return undefined;
  return Buffer.from(hkdfSync('sha256', resolveAuthSecret(config), 'operator-token', 'scrape-api temporal codec server v1', 32)).toString('base64url');
}
