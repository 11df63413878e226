/**
 * The committed clients (clients/) are what the generators make of the route table's document
 * today: `npm run clients -- --check` regenerates into a temporary folder and compares every
 * generated file (about 20 s, most of it openapi-python-client and ruff).
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = path.resolve(__dirname, '..');

it('regenerating the clients from the route table gives the committed files', async () => {
  const result = await run(process.execPath, ['--import', 'tsx', path.join(root, 'scripts', 'generate-clients.ts'), '--check'], { cwd: root, timeout: 300_000 }).catch(
    (error: { message: string; stdout?: string; stderr?: string }) => ({ stdout: error.stdout ?? '', stderr: `${error.message}\n${error.stderr ?? ''}` }),
  );
  expect(result.stderr).toBe('');
  expect(result.stdout).toContain('clients/ is up to date with the route table');
}, 300_000);
