import { randomBytes } from 'node:crypto';
import { defaultPayloadConverter } from '@temporalio/common';
import { EncryptionCodec, createPayloadKeyring, isEncryptedPayload } from './temporal-payload-codec';

const secret = { cookie: 'session=s3cr3t-cookie-value', password: 'hunter2-password' };

describe('EncryptionCodec', () => {
  const oldKey = randomBytes(32);
  const newKey = randomBytes(32);

  it('encrypts a payload (no byte of the value in clear) and decodes it back whole', async () => {
    const codec = new EncryptionCodec(createPayloadKeyring(newKey));
    const plain = defaultPayloadConverter.toPayload(secret);
    const [encoded] = await codec.encode([plain]);
    expect(isEncryptedPayload(encoded!)).toBe(true);
    const wire = Buffer.concat([...Object.values(encoded!.metadata ?? {}).map((v) => Buffer.from(v)), Buffer.from(encoded!.data!)]).toString('latin1');
    expect(wire).not.toContain('s3cr3t');
    expect(wire).not.toContain('hunter2');
    expect(wire).not.toContain('json/plain');
    const [decoded] = await codec.decode([encoded!]);
    expect(defaultPayloadConverter.fromPayload(decoded!)).toEqual(secret);
  });

  it('reads what an old key wrote after a rotation, and writes under the new key', async () => {
    const [underOld] = await new EncryptionCodec(createPayloadKeyring(oldKey)).encode([defaultPayloadConverter.toPayload(secret)]);
    const rotated = new EncryptionCodec(createPayloadKeyring(newKey, [oldKey]));
    expect(defaultPayloadConverter.fromPayload((await rotated.decode([underOld!]))[0]!)).toEqual(secret);
    const [underNew] = await rotated.encode([defaultPayloadConverter.toPayload(1)]);
    const keyId = (p: typeof underNew) => Buffer.from(p!.metadata!['encryption-key-id']!).toString();
    expect(keyId(underNew)).not.toBe(keyId(underOld));
    expect(keyId(underNew)).toBe(createPayloadKeyring(newKey).current.id);
  });

  it('refuses a payload under a key it does not hold, naming the key id, and an altered one', async () => {
    const [underOld] = await new EncryptionCodec(createPayloadKeyring(oldKey)).encode([defaultPayloadConverter.toPayload(secret)]);
    const withoutOld = new EncryptionCodec(createPayloadKeyring(newKey));
    await expect(withoutOld.decode([underOld!])).rejects.toThrow(createPayloadKeyring(oldKey).current.id);
    const altered = Buffer.from(underOld!.data!);
    altered[20] = altered[20]! ^ 1;
    await expect(new EncryptionCodec(createPayloadKeyring(oldKey)).decode([{ ...underOld!, data: altered }])).rejects.toThrow();
  });

  it('passes plain payloads (histories recorded before the codec) through decode untouched', async () => {
    const plain = defaultPayloadConverter.toPayload({ a: 1 });
    expect(await new EncryptionCodec(createPayloadKeyring(newKey)).decode([plain])).toEqual([plain]);
  });
});
