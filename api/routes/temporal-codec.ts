/**
 * The codec server (docs/operations.md, "Temporal payload encryption"): the HTTP endpoint the
 * Temporal UI and CLI call to see the payloads this service encrypts (platform/temporal-payload-codec.ts)
 * in clear. Temporal's protocol: `POST <endpoint>/decode` (and `/encode`) with
 * `{"payloads":[{"metadata":{"<key>":"<base64>"},"data":"<base64>"}]}`, answered in the same shape;
 * the UI calls it from the operator's browser, so it answers CORS for the UI's origin.
 *
 * Behind an operator credential, OPERATOR_TOKEN (workers/payload-codec.ts), never an account's:
 * decoding shows every account's cookies and typed passwords. Two ways to present it, because the
 * two callers can send different things:
 *  - `Authorization: Bearer <token>` on /temporal-codec/{encode,decode}: the CLI
 *    (`--codec-endpoint … --codec-auth 'Bearer <token>'`), scripts;
 *  - the token as a path segment, /temporal-codec/<token>/{encode,decode}: the Temporal UI, whose
 *    codec setting (server flag or the browser's "Data Encoder" dialog) is a URL and nothing else
 *    (its only other option passes an OIDC access token, which a UI without OIDC does not have).
 * Anyone who can read that URL can decode, so it goes only where the UI is the operator's alone
 * (the embedded UI on 127.0.0.1, or each operator's own browser setting).
 * Payloads that do not decode (a key no longer configured) are answered as they came.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { z } from 'zod';
import type { Payload } from '@temporalio/common';
import { errorBody } from '../../platform/errors';
import { EncryptionCodec } from '../../platform/temporal-payload-codec';
import { operatorToken, payloadKeyringFromConfig } from '../../workers/payload-codec';
import type { Config } from '../../platform/config';
import type { AppDeps } from '../deps';
import { type Route, badRequest, customRoute } from '../route-table';

export const CODEC_PATH = '/temporal-codec';

const jsonPayload = z.object({ metadata: z.record(z.string(), z.string()).nullish(), data: z.string().nullish() });
const codecBody = z.object({ payloads: z.array(jsonPayload).max(10_000) });
type JsonPayload = z.infer<typeof jsonPayload>;

function fromJson({ metadata, data }: JsonPayload): Payload {
  return {
    metadata: Object.fromEntries(Object.entries(metadata ?? {}).map(([k, v]) => [k, Buffer.from(v, 'base64')])),
    ...(data != null ? { data: Buffer.from(data, 'base64') } : {}),
  };
}

function toJson(payload: Payload): JsonPayload {
  return {
    metadata: Object.fromEntries(Object.entries(payload.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v).toString('base64')])),
    data: Buffer.from(payload.data ?? new Uint8Array()).toString('base64'),
  };
}

/** The UI's origin (TEMPORAL_UI_URL), under both loopback names when it is a loopback address. */
export function codecCorsOrigins(config: Config): Set<string> {
  const ui = new URL(config.TEMPORAL_UI_URL);
  const origins = new Set([ui.origin]);
  if (ui.hostname === '127.0.0.1' || ui.hostname === 'localhost') {
    for (const host of ['127.0.0.1', 'localhost']) origins.add(`${ui.protocol}//${host}${ui.port ? `:${ui.port}` : ''}`);
  }
  return origins;
}

const digest = (value: string) => createHash('sha256').update(value).digest();

export function temporalCodecRouteTable(deps: AppDeps): Route[] {
  const token = operatorToken(deps.config);
  const codec = new EncryptionCodec(payloadKeyringFromConfig(deps.config));
  const origins = codecCorsOrigins(deps.config);
  const expected = token ? digest(token) : undefined;
  const presented = (req: Request): string | undefined => {
    const fromPath = req.params.token;
    if (typeof fromPath === 'string') return fromPath;
    const header = req.headers.authorization;
    return header?.startsWith('Bearer ') ? header.slice('Bearer '.length).trim() : undefined;
  };

  const cors = (req: Request, res: Response, next: NextFunction) => {
    const origin = req.headers.origin;
    if (origin && origins.has(origin)) {
      res.setHeader('access-control-allow-origin', origin);
      res.setHeader('access-control-allow-credentials', 'true');
      res.setHeader('vary', 'origin');
    }
    if (req.method !== 'OPTIONS') return next();
    res.setHeader('access-control-allow-methods', 'POST, OPTIONS');
    res.setHeader('access-control-allow-headers', 'content-type, x-namespace, authorization');
    res.setHeader('access-control-max-age', '600');
    res.status(204).end();
  };

  const handler = (direction: 'encode' | 'decode') => async (req: Request, res: Response) => {
    if (!expected) {
      res.status(404).json(errorBody('NOT_FOUND', 'The codec server is off: set OPERATOR_TOKEN (docs/operations.md, "Temporal payload encryption").'));
      return;
    }
    const given = presented(req);
    if (!given || !timingSafeEqual(digest(given), expected)) {
      res.status(401).json(errorBody('UNAUTHORIZED', 'The codec server needs the operator credential (OPERATOR_TOKEN) as a Bearer token.'));
      return;
    }
    const parsed = codecBody.safeParse(req.body);
    if (!parsed.success) {
      res.status(400).json(errorBody('BAD_REQUEST', 'The body must be {"payloads":[{"metadata":{...base64},"data":"base64"}]}.'));
      return;
    }
    const payloads = parsed.data.payloads.map(fromJson);
    // One payload at a time: one that cannot be decoded (an old key dropped) must not hide the others.
    const answered = await Promise.all(payloads.map(async (p) => (await codec[direction]([p]).catch(() => [p]))[0]!));
    res.json({ payloads: answered.map(toJson) });
  };

  const json = express.json({ limit: '8mb' });
  const doc = (path: string, direction: 'encode' | 'decode', params?: readonly string[]) =>
    customRoute({
      method: 'post',
      path,
      params,
      credential: 'none',
      tag: 'operations',
      summary: `Temporal codec server: ${direction} payloads (operator credential: Bearer OPERATOR_TOKEN${params ? ', here in the path' : ''})`,
      body: badRequest(codecBody),
      responses: { 200: codecBody },
      errors: ['UNAUTHORIZED', 'BAD_REQUEST', 'NOT_FOUND'],
      mount: (router: Router) => router.post(path, json, handler(direction)),
    });
  return [
    customRoute({
      ...doc(`${CODEC_PATH}/decode`, 'decode'),
      // The CORS preflight of every codec path (a middleware: no route of its own in the document).
      mount: (router: Router) => {
        router.use(CODEC_PATH, cors);
        router.post(`${CODEC_PATH}/decode`, json, handler('decode'));
      },
    }),
    doc(`${CODEC_PATH}/encode`, 'encode'),
    doc(`${CODEC_PATH}/:token/decode`, 'decode', ['token']),
    doc(`${CODEC_PATH}/:token/encode`, 'encode', ['token']),
  ];
}
