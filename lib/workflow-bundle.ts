/**
 * The workflow code bundle (webpack, seconds of CPU) built once and kept under
 * <DATA_DIR>/workflow-bundles/<key>.js, where the key hashes every source file under workflows/
 * (the only code workflows import at run time, besides the SDK) and the SDK's version. Every
 * process that runs workflows — the worker, and each API process hosting the sync-queue worker —
 * reuses it instead of bundling again; a changed workflow file or SDK makes a new key.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';

const WORKFLOWS_DIR = path.resolve(__dirname, '..', 'workflows');

function bundleKey(): string {
  const hash = createHash('sha256');
  for (const name of readdirSync(WORKFLOWS_DIR).sort()) {
    if (!name.endsWith('.ts') || name.endsWith('.test.ts')) continue;
    hash.update(name).update('\0').update(readFileSync(path.join(WORKFLOWS_DIR, name))).update('\0');
  }
  for (const pkg of ['@temporalio/workflow', '@temporalio/worker', '@temporalio/common']) {
    hash.update(pkg).update((JSON.parse(readFileSync(require.resolve(`${pkg}/package.json`), 'utf8')) as { version: string }).version);
  }
  return hash.digest('hex').slice(0, 32);
}

export async function loadWorkflowBundle(dataDir: string): Promise<{ code: string }> {
  const file = path.join(path.resolve(dataDir), 'workflow-bundles', `${bundleKey()}.js`);
  if (existsSync(file)) return { code: readFileSync(file, 'utf8') };
  const { code } = await bundleWorkflowCode({ workflowsPath: require.resolve('../workflows') });
  mkdirSync(path.dirname(file), { recursive: true });
  // Written whole or not at all: processes starting together may build it at the same time.
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, code);
  renameSync(partial, file);
  return { code };
}
