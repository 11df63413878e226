/**
 * The OpenAPI document against the app: it validates as OpenAPI 3.1 (@seriousme/openapi-schema-validator,
 * run in a child process: the package is ESM-only), every route the app mounts is in it and every
 * operation in it is mounted (the router stack walked; /mcp, a JSON-RPC endpoint, aside), and /docs loads its assets from our own
 * origin. The app is built in process with collaborators that are never called: routes only.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Server } from 'node:http';
import { routesOnlyApp } from './openapi-document';
import { HTTP_METHODS, type Route } from './route-table';
import { openApiPath } from './openapi';
import { MCP_PATH } from './mcp/router';

type Doc = { paths: Record<string, Record<string, { responses: Record<string, unknown>; requestBody?: { content: Record<string, { example?: unknown }> } }>>; components: { schemas: Record<string, { properties?: Record<string, { enum?: string[] }> }> } };

const buildApp = () => routesOnlyApp({ DIAGNOSTICS_ENABLED: 'true', PAYMENT_PROVIDER: 'local' });

interface Layer {
  route?: { path: string; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
}

/** Every (method, path) mounted as an Express route, nested routers included. */
function mountedRoutes(stack: Layer[]): Array<{ method: string; path: string }> {
  const found: Array<{ method: string; path: string }> = [];
  for (const layer of stack) {
    if (layer.route) {
      for (const method of Object.keys(layer.route.methods)) found.push({ method, path: layer.route.path });
    } else if (layer.handle?.stack) {
      found.push(...mountedRoutes(layer.handle.stack));
    }
  }
  return found;
}

let app: ReturnType<typeof buildApp>;
let server: Server;
let baseUrl: string;
let doc: Doc;

beforeAll(async () => {
  app = buildApp();
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const answer = await fetch(`${baseUrl}/openapi.json`);
  expect(answer.status).toBe(200);
  doc = (await answer.json()) as Doc;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe('GET /openapi.json', () => {
  it('validates as an OpenAPI 3.1 document', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'openapi-'));
    const file = path.join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(doc));
    const script = `import { Validator } from '@seriousme/openapi-schema-validator';
const validator = new Validator();
const result = await validator.validate(${JSON.stringify(file)});
console.log(JSON.stringify({ valid: result.valid, version: validator.version, errors: result.errors ?? null }));`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: path.resolve(__dirname, '..'), encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual({ valid: true, version: '3.1', errors: null });
  });

  it('lists every mounted route, and every route it lists is mounted', () => {
    const table: readonly Route[] = app.routes;
    const catchAlls = table.flatMap((r) => (r.kind === 'custom' ? (r.serves ?? []) : []));
    const mounted = mountedRoutes((app as unknown as { router: { stack: Layer[] } }).router.stack);
    expect(mounted.length).toBeGreaterThan(45);
    const documented = new Set(Object.entries(doc.paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m} ${p}`)));
    // Mounted → documented (a library's catch-all is declared by the route that mounts it).
    const undocumented = mounted.filter(({ method, path: p }) => {
      if (catchAlls.includes(p)) return false;
      // The MCP endpoint speaks JSON-RPC, described by its own tools/list, not by this document (docs/mcp.md).
      if (p === MCP_PATH) return false;
      return !documented.has(`${method === '_all' ? 'all' : method} ${openApiPath(p)}`);
    });
    expect(undocumented).toEqual([]);
    // Documented → mounted (directly, or behind a declared catch-all).
    const mountedKeys = new Set(mounted.map(({ method, path: p }) => `${method} ${openApiPath(p)}`));
    const behindCatchAll = (p: string) => catchAlls.some((pattern) => p.startsWith(pattern.replace('*splat', '')));
    const unmounted = [...documented].filter((key) => !mountedKeys.has(key) && !behindCatchAll(key.split(' ')[1]!));
    expect(unmounted).toEqual([]);
    expect(table.every((r) => (HTTP_METHODS as readonly string[]).includes(r.method))).toBe(true);
  });

  it('declares the credentials, the error codes from the table, and an example scrape request', () => {
    const full = doc as unknown as { components: { securitySchemes: Record<string, unknown> } };
    expect(full.components.securitySchemes).toEqual({
      apiKeyHeader: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'x-api-key' }),
      apiKeyQuery: expect.objectContaining({ type: 'apiKey', in: 'query', name: 'apiKey' }),
      sessionCookie: expect.objectContaining({ type: 'apiKey', in: 'cookie', name: 'better-auth.session_token' }),
    });
    const codes = doc.components.schemas.ErrorBody?.properties?.code?.enum ?? [];
    expect(codes).toEqual(expect.arrayContaining(['UNAUTHORIZED', 'NOT_FOUND', 'VALIDATION_FAILED', 'INSUFFICIENT_CREDIT', 'TIMEOUT']));
    const scrape = doc.paths['/webhook/unblocker']!.post!;
    expect(scrape.requestBody!.content['application/json']!.example).toMatchObject({ url: 'https://example.com/' });
    expect(Object.keys(scrape.responses)).toEqual(expect.arrayContaining(['200', '202', '400', '401', '402', '403', '502', '504']));
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/flows/{id}/runs/{runId}', '/api/auth/sign-in/email', '/metrics', '/openapi.json', '/docs']));
  });
});

describe('GET /docs', () => {
  it('answers HTML whose scripts and styles come from this origin, and each asset answers 200', async () => {
    const page = await fetch(`${baseUrl}/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(assets.length).toBeGreaterThanOrEqual(4);
    for (const asset of assets) {
      expect(asset.startsWith('/')).toBe(true);
      expect(asset.startsWith('//')).toBe(false);
      const answer = await fetch(`${baseUrl}${asset}`);
      expect({ asset, status: answer.status }).toEqual({ asset, status: 200 });
      await answer.arrayBuffer();
    }
  });
});
