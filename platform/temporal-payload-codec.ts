/**
 * Encryption of every Temporal payload this service writes (workflow and activity inputs and
 * results, Signals, Updates, Queries, memos, failures' details): a `PayloadCodec`, the step
 * Temporal places between its payload converter and the wire (docs/operations.md, "Temporal
 * payload encryption"). The server, its history and its backups only ever hold ciphertext; the
 * client, the workers and the codec server (api/routes/temporal-codec.ts) hold the key.
 *
 * AES-256-GCM from node:crypto (secrecy and integrity in one), a random 96-bit IV per payload.
 * The encrypted payload is the usual shape of Temporal's encryption samples: metadata
 * `encoding: binary/encrypted` and `encryption-key-id: <key id>`, data = IV ‖ ciphertext ‖ tag,
 * where the plaintext is the original payload serialised with Temporal's protobuf (its metadata
 * and data together). The key id is a hash of the key (never the key), so a rotation moves the
 * old key to TEMPORAL_PAYLOAD_KEYS_OLD and histories written under it still decode.
 *
 * Codecs run in the worker's main thread, outside the workflow sandbox: node:crypto is fine here.
 * Payloads that are not encrypted (histories recorded before the codec) pass through decode
 * untouched, which keeps old histories replayable and old runs readable.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { DataConverter, Payload, PayloadCodec } from '@temporalio/common';
import { temporal } from '@temporalio/proto';

export const ENCRYPTED_ENCODING = 'binary/encrypted';
export const KEY_ID_METADATA = 'encryption-key-id';
const CIPHER = 'aes-256-gcm';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export interface PayloadKey {
  /** 16 hex digits of SHA-256 over a label and the key. */
  id: string;
  key: Buffer;
}

export interface PayloadKeyring {
  current: PayloadKey;
  byId(id: string): PayloadKey | undefined;
}

export function payloadKey(key: Buffer): PayloadKey {
  if (key.length !== 32) throw new Error('a Temporal payload key is 32 bytes');
  return { id: createHash('sha256').update('scrape-api temporal payload key id\0').update(key).digest('hex').slice(0, 16), key };
}

export function createPayloadKeyring(current: Buffer, old: readonly Buffer[] = []): PayloadKeyring {
  const keys = [current, ...old].map(payloadKey);
  const byId = new Map(keys.map((k) => [k.id, k]));
  return { current: keys[0]!, byId: (id) => byId.get(id) };
}

const text = (value: Uint8Array | null | undefined): string | undefined => (value ? Buffer.from(value).toString('utf8') : undefined);

export function isEncryptedPayload(payload: Payload): boolean {
  return text(payload.metadata?.encoding) === ENCRYPTED_ENCODING;
}

export class EncryptionCodec implements PayloadCodec {
  constructor(private readonly keyring: PayloadKeyring) {}

  // async: a failure is a rejected promise, as the SDK expects of a codec.
  // eslint-disable-next-line @typescript-eslint/require-await
  async encode(payloads: Payload[]): Promise<Payload[]> {
    return payloads.map((payload) => this.encrypt(payload));
  }

  // eslint-disable-next-line @typescript-eslint/require-await
  async decode(payloads: Payload[]): Promise<Payload[]> {
    return payloads.map((payload) => (isEncryptedPayload(payload) ? this.decrypt(payload) : payload));
  }

  private encrypt(payload: Payload): Payload {
    const { id, key } = this.keyring.current;
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv(CIPHER, key, iv);
    const plaintext = temporal.api.common.v1.Payload.encode(payload).finish();
    const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
    return {
      metadata: { encoding: Buffer.from(ENCRYPTED_ENCODING), [KEY_ID_METADATA]: Buffer.from(id) },
      data: Buffer.concat([iv, ciphertext, cipher.getAuthTag()]),
    };
  }

  private decrypt(payload: Payload): Payload {
    const keyId = text(payload.metadata?.[KEY_ID_METADATA]) ?? '';
    const found = this.keyring.byId(keyId);
    if (!found) throw new Error(`a Temporal payload is encrypted under key ${keyId || '(none named)'}, which is not configured (TEMPORAL_PAYLOAD_KEY, TEMPORAL_PAYLOAD_KEYS_OLD)`);
    const data = Buffer.from(payload.data ?? new Uint8Array());
    if (data.length < IV_BYTES + TAG_BYTES) throw new Error('a Temporal payload marked encrypted is too short to be one');
    const decipher = createDecipheriv(CIPHER, found.key, data.subarray(0, IV_BYTES));
    decipher.setAuthTag(data.subarray(data.length - TAG_BYTES));
    const plaintext = Buffer.concat([decipher.update(data.subarray(IV_BYTES, data.length - TAG_BYTES)), decipher.final()]);
    const inner = temporal.api.common.v1.Payload.decode(plaintext);
    return { metadata: inner.metadata, data: inner.data };
  }
}

/** The data converter of every client and worker of the service: the default converter, then this codec. */
export function encryptingDataConverter(keyring: PayloadKeyring): DataConverter {
  return { payloadCodecs: [new EncryptionCodec(keyring)] };
}
