/**
 * CPU of the Temporal payload codec alone (platform/temporal-payload-codec.ts), interleaved with
 * the default converter without it in the same run: `npx tsx bench/payload-codec.ts`.
 * The payloads are those of one standalone scrape through a lane: its batch input (a request with
 * cookies), the first attempt's local-activity input and result, the run's outcome.
 */
import { randomBytes } from 'node:crypto';
import { defaultPayloadConverter } from '@temporalio/common';
import { EncryptionCodec, createPayloadKeyring } from '../platform/temporal-payload-codec';

const request = { url: 'https://example.com/login', mode: 'http', selectors: [{ name: 'h1', selector: 'h1' }], cookies: [{ name: 'sid', value: randomBytes(24).toString('hex') }], headers: { cookie: `a=${randomBytes(16).toString('hex')}` }, options: { retry_count: 2 } };
const values = [
  { batch: [{ runId: randomBytes(12).toString('hex'), userId: 'u', apiKeyId: 'k', cost: 1, request }] },
  { runIds: [randomBytes(12).toString('hex')], request },
  { outcomes: [{ status: 'succeeded', httpStatus: 200, attempts: 1, elapsedMs: 120, stored: true }] },
  { status: 'succeeded', runId: 'r' },
];
const codec = new EncryptionCodec(createPayloadKeyring(randomBytes(32)));
const ROUNDS = Number(process.env.ROUNDS ?? 20_000);

async function perScrape(withCodec: boolean): Promise<number> {
  const start = process.cpuUsage();
  for (let i = 0; i < ROUNDS; i++) {
    const payloads = values.map((v) => defaultPayloadConverter.toPayload(v));
    // Written once (encode), read at least twice (the worker's activation, the client's answer).
    const wire = withCodec ? await codec.encode(payloads) : payloads;
    for (let r = 0; r < 2; r++) {
      const read = withCodec ? await codec.decode(wire) : wire;
      for (const p of read) defaultPayloadConverter.fromPayload(p);
    }
  }
  const used = process.cpuUsage(start);
  return (used.user + used.system) / ROUNDS;
}

async function main(): Promise<void> {
  const plain: number[] = [];
  const encrypted: number[] = [];
  for (let pass = 0; pass < 5; pass++) {
    plain.push(await perScrape(false));
    encrypted.push(await perScrape(true));
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  console.log(`CPU per scrape's payloads (4 payloads, encoded once, decoded twice), median of 5 interleaved passes of ${ROUNDS}:`);
  console.log(`  converter only: ${median(plain).toFixed(1)} µs;  converter + codec: ${median(encrypted).toFixed(1)} µs;  codec: +${(median(encrypted) - median(plain)).toFixed(1)} µs`);
}

void main();
