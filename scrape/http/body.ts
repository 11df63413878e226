/**
 * An http-engine response body (engine.ts): decompressed (gzip, deflate, br) while it streams, the
 * DECOMPRESSED size capped (RESPONSE_TOO_LARGE), so a compression bomb cannot exhaust memory.
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { AppError } from '../../platform/errors';

export function headerValue(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

function tooLarge(max: number): AppError {
  return new AppError('RESPONSE_TOO_LARGE', `response body exceeds the ${formatBytes(max)} limit`, { limit: max });
}

/** What readBody reads: undici's response, or the impersonating client's (impersonate.ts). */
export interface BodySource {
  headers: Record<string, string | string[] | undefined>;
  body: Readable;
}

export async function readBody(res: BodySource, max: number): Promise<Buffer> {
  const encodings = (headerValue(res.headers['content-encoding']) ?? '')
    .split(',')
    .map((e) => e.trim().toLowerCase())
    .filter((e) => e !== '' && e !== 'identity');
  const declared = Number(headerValue(res.headers['content-length']));
  if (encodings.length === 0 && Number.isFinite(declared) && declared > max) {
    res.body.destroy();
    throw tooLarge(max);
  }
  const decoders = encodings.reverse().map(decoderFor);
  const chunks: Buffer[] = [];
  let size = 0;
  let overflow = false;
  const sink = async (source: AsyncIterable<Buffer>) => {
    for await (const chunk of source) {
      size += chunk.length;
      if (size > max) {
        overflow = true;
        throw tooLarge(max);
      }
      chunks.push(chunk);
    }
  };
  try {
    await (pipeline as (...streams: unknown[]) => Promise<void>)(res.body, ...decoders, sink);
  } catch (err) {
    // pipeline may report the teardown of another stage (AbortError) instead of the sink's error.
    if (overflow) throw tooLarge(max);
    if (err instanceof AppError) throw err;
    const code = (err as { code?: unknown } | null)?.code;
    if (typeof code === 'string' && code.startsWith('Z_')) {
      throw new AppError('SCRAPE_FAILED', `cannot decode ${encodings.join(', ')} body: ${(err as Error).message}`);
    }
    throw err;
  }
  return Buffer.concat(chunks, size);
}

type Decoder = NodeJS.ReadWriteStream | ((source: AsyncIterable<Buffer>) => AsyncGenerator<Buffer>);

function decoderFor(encoding: string): Decoder {
  // Lenient flushes: many servers end gzip/deflate streams abruptly; browsers accept that.
  const flush = { flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH };
  switch (encoding) {
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip(flush);
    case 'br':
      return zlib.createBrotliDecompress({
        flush: zlib.constants.BROTLI_OPERATION_FLUSH,
        finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH,
      });
    case 'deflate':
      return inflateZlibOrRaw;
    default:
      throw new AppError('SCRAPE_FAILED', `unsupported content-encoding "${encoding}"`);
  }
}

/** "deflate" is meant to be zlib-wrapped, but some servers send raw deflate: look at the header. */
async function* inflateZlibOrRaw(source: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  const it = source[Symbol.asyncIterator]();
  const first = await it.next();
  if (first.done) return;
  const head = first.value;
  const b0 = head[0] ?? 0;
  const b1 = head[1] ?? 0;
  const zlibWrapped = head.length >= 2 && (b0 & 0x0f) === 8 && ((b0 << 8) | b1) % 31 === 0;
  const flush = { flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH };
  const inflater = zlibWrapped ? zlib.createInflate(flush) : zlib.createInflateRaw(flush);
  const rest = Readable.from(
    (async function* () {
      yield head;
      for (;;) {
        const n = await it.next();
        if (n.done) return;
        yield n.value;
      }
    })(),
  );
  rest.on('error', (err) => inflater.destroy(err));
  yield* rest.pipe(inflater) as AsyncIterable<Buffer>;
}

/** Lets a redirect's body go: undici's is drained (its connection stays reusable), another stream is destroyed. */
export async function discardBody(body: Readable & { dump?: () => Promise<unknown> }): Promise<void> {
  if (typeof body.dump === 'function') await body.dump().catch(() => undefined);
  else body.destroy();
}

function formatBytes(n: number): string {
  return n % (1024 * 1024) === 0 ? `${n / (1024 * 1024)} MiB` : n % 1024 === 0 ? `${n / 1024} KiB` : `${n} bytes`;
}
