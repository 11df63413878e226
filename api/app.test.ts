import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { testEnv } from '../test/helpers/env';
import { type Stack, startStack } from '../test/helpers/stack';
import { testDataConverter } from '../test/helpers/temporal-codec';

describe('API skeleton (real API and worker processes, PostgreSQL, Temporal)', () => {
  let stack: Stack;

  beforeAll(async () => {
    // A short synchronous limit so the 504 path is quick to exercise.
    stack = await startStack({ env: { DIAGNOSTICS_ENABLED: 'true', SYNC_TIMEOUT_MS: '1500' } });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  const echo = (message: string) =>
    fetch(`${stack.baseUrl}/diagnostics/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ message }) });

  it('answers /healthz and /readyz when PostgreSQL and Temporal are reachable', async () => {
    const health = await fetch(`${stack.baseUrl}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${stack.baseUrl}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', checks: { database: 'ok', temporal: 'ok' } });
  });

  it('answers an unknown route with 404 in the standard shape and a request id', async () => {
    const res = await fetch(`${stack.baseUrl}/no/such/route`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(await res.json()).toEqual({ statusCode: 404, message: 'Cannot GET /no/such/route', error: 'Not Found', code: 'NOT_FOUND' });
  });

  it('keeps a safe incoming request id', async () => {
    const res = await fetch(`${stack.baseUrl}/healthz`, { headers: { 'x-request-id': 'trace-abc.123' } });
    expect(res.headers.get('x-request-id')).toBe('trace-abc.123');
    const unsafe = await fetch(`${stack.baseUrl}/healthz`, { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(unsafe.headers.get('x-request-id')).not.toBe('bad id with spaces');
  });

  it('answers malformed JSON with 400 and an oversized body with 413, both as JSON', async () => {
    const malformed = await fetch(`${stack.baseUrl}/diagnostics/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"message": ' });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toEqual({ statusCode: 400, message: 'Malformed JSON in request body', error: 'Bad Request', code: 'MALFORMED_JSON' });

    const big = JSON.stringify({ message: 'x'.repeat(1024 * 1024 + 10) });
    const tooLarge = await fetch(`${stack.baseUrl}/diagnostics/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: big });
    expect(tooLarge.status).toBe(413);
    expect(await tooLarge.json()).toEqual({ statusCode: 413, message: 'Request body is larger than 1 MiB', error: 'Payload Too Large', code: 'PAYLOAD_TOO_LARGE' });
  });

  it('validates a body with 400 naming the field', async () => {
    const res = await fetch(`${stack.baseUrl}/diagnostics/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ delayMs: -5 }) });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ statusCode: 400, message: 'delayMs must be at least 0', error: 'Bad Request', code: 'BAD_REQUEST' });
  });

  it('runs a workflow through a worker end to end', async () => {
    // This stack's synchronous limit is 1.5 s (for the 504 test below): on a loaded machine the run
    // may take longer, and the API answers 504 with the run's workflow id. The result is then
    // read from Temporal: either way it is the worker's.
    const res = await echo('wired');
    expect([200, 504]).toContain(res.status);
    const body = (await res.json()) as { id: string; workflowId: string; result?: { message: string; workerPid: number; attempt: number } };
    expect(body.workflowId).toBe(`diagnostics-echo-${body.id}`);
    let result = body.result;
    if (res.status === 504) {
      const connection = await Connection.connect({ address: testEnv('temporalAddress') });
      try {
        result = (await new Client({ connection, dataConverter: testDataConverter() }).workflow.getHandle(body.workflowId).result()) as typeof result;
      } finally {
        await connection.close();
      }
    }
    expect(result).toMatchObject({ message: 'wired', workerPid: stack.workerProcess()?.pid });
  });

  it('answers 504 with the run id past the synchronous limit, and the run still finishes', async () => {
    const res = await fetch(`${stack.baseUrl}/diagnostics/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ message: 'slow', delayMs: 3000 }) });
    expect(res.status).toBe(504);
    const body = (await res.json()) as { statusCode: number; error: string; id: string; workflowId: string; message: string };
    expect(body).toMatchObject({ statusCode: 504, error: 'Gateway Timeout', message: 'The run did not finish within 1500 ms' });
    expect(body.id).toMatch(/^[0-9a-f-]{36}$/);

    const connection = await Connection.connect({ address: testEnv('temporalAddress') });
    try {
      const client = new Client({ connection, dataConverter: testDataConverter() });
      const result: unknown = await client.workflow.getHandle(body.workflowId).result();
      expect(result).toMatchObject({ message: 'slow' });
    } finally {
      await connection.close();
    }
  });

  it('exposes Prometheus metrics labelled by route pattern, valid for promtool', async () => {
    await fetch(`${stack.baseUrl}/healthz`);
    await fetch(`${stack.baseUrl}/some/unknown/path-123`);
    const res = await fetch(`${stack.baseUrl}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await res.text();
    expect(text).toMatch(/# HELP http_requests_total /);
    expect(text).toMatch(/# TYPE http_requests_total counter/);
    expect(text).toMatch(/http_requests_total\{method="GET",route="\/healthz",status="200"\} \d+/);
    expect(text).toMatch(/http_requests_total\{method="GET",route="unmatched",status="404"\} \d+/);
    expect(text).toMatch(/http_requests_total\{method="POST",route="\/diagnostics\/echo",status="504"\} [1-9]/);
    expect(text).not.toMatch(/path-123/);
    expect(text).toMatch(/http_request_duration_seconds_bucket\{/);
    expect(text).toMatch(/process_resident_memory_bytes/);

    // The exposition format, checked by Prometheus's own parser.
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'metrics-')), 'metrics.txt');
    writeFileSync(file, text);
    const promtool = '/usr/bin/promtool';
    const verdict = execFileSync('sh', ['-c', `${promtool} check metrics < ${file} 2>&1; echo "exit=$?"`], { encoding: 'utf8' });
    // promtool exits 0 when the text parses and passes its linter (1: parse error, 3: lint problems).
    expect(verdict).toBe('exit=0\n');
  });
});
