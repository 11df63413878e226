import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { echo } from '../../activities/echo';
import { testEnv } from '../../test/helpers/env';
import { echoWorkflow } from '../../workflows/echo.workflow';
import { freePort } from '../../platform/free-port';
import { type RunningTemporal, devServerArgs, startTemporalDevServer } from './temporal-server';

describe('the file-backed Temporal dev server (WAL journal)', () => {
  it('passes the search attributes, the database file and its WAL pragmas to the CLI', () => {
    const args = devServerArgs({ cliPath: 'temporal', port: 1234, uiPort: 5678, dbFile: '/x/t.db' });
    expect(args).toEqual(expect.arrayContaining(['server', 'start-dev', '--port', '1234', '--ui-port', '5678', '--db-filename', '/x/t.db', '--search-attribute', 'AccountId=Keyword']));
    expect(args.join(' ')).toContain('--sqlite-pragma journal_mode=wal --sqlite-pragma synchronous=normal');
    const inMemory = devServerArgs({ cliPath: 'temporal', port: 1 });
    expect(inMemory).toContain('--headless');
    expect(inMemory).not.toContain('--sqlite-pragma');
  });

  it('keeps completed workflow histories when the server is killed and restarted', async () => {
    const dbFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'temporal-durable-')), 'temporal.db');
    const port = await freePort();
    const start = () => startTemporalDevServer({ cliPath: testEnv('temporalCli'), port, dbFile });

    let server: RunningTemporal = await start();
    const workflowId = 'durable-echo-1';
    try {
      const nativeConnection = await NativeConnection.connect({ address: server.address });
      const worker = await Worker.create({ connection: nativeConnection, taskQueue: 'durable', workflowsPath: require.resolve('../../workflows'), activities: { echo } });
      const connection = await Connection.connect({ address: server.address });
      const client = new Client({ connection });
      const result = await worker.runUntil(client.workflow.execute(echoWorkflow, { taskQueue: 'durable', workflowId, args: [{ message: 'kept', delayMs: 0 }] }));
      expect(result.message).toBe('kept');
      await connection.close();
      await nativeConnection.close();
    } finally {
      // A crash, not a clean stop.
      server.process.kill('SIGKILL');
      await new Promise((r) => server.process.once('exit', r));
    }

    server = await start();
    try {
      const connection = await Connection.connect({ address: server.address });
      const client = new Client({ connection });
      const handle = client.workflow.getHandle(workflowId);
      const description = await handle.describe();
      expect(description.status.name).toBe('COMPLETED');
      expect(await handle.result()).toMatchObject({ message: 'kept' });
      const history = await handle.fetchHistory();
      expect(history.events?.length).toBeGreaterThan(5);
      await connection.close();
    } finally {
      await server.stop();
    }
  });
});
