/**
 * The workflow code bundle (webpack, seconds of CPU) built once and kept under
 * <DATA_DIR>/workflow-bundles/<key>.js, where the key hashes every source file the workflows
 * reach through relative imports from workflows/index.ts (the workflows, the node types, the
 * engine table, the error table...) and the SDK's version. Every process that runs workflows —
 * the worker, and each API process hosting the sync-queue worker — reuses it instead of bundling
 * again; a change to any file in the bundle or to the SDK makes a new key.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';

const WORKFLOWS_ENTRY = path.resolve(__dirname, '..', 'workflows', 'index.ts');
/** `import … from './x'`, `export … from './x'`, `import './x'`; group 1 is `type` for type-only ones (erased: not in the bundle). */
const RELATIVE_IMPORT = /\b(?:import|export)(\s+type\b)?[^;'"]*?(?:from\s*)?['"](\.{1,2}\/[^'"]+)['"]/g;

/** The entry and every file it reaches through relative imports that are not type-only. */
export function bundleSources(entry = WORKFLOWS_ENTRY): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const match of readFileSync(file, 'utf8').matchAll(RELATIVE_IMPORT)) {
      if (match[1]) continue;
      const base = path.resolve(path.dirname(file), match[2]!);
      const resolved = [`${base}.ts`, path.join(base, 'index.ts'), base].find((candidate) => existsSync(candidate) && candidate.endsWith('.ts'));
      if (resolved) visit(resolved);
    }
  };
  visit(entry);
  return [...seen].sort();
}

function bundleKey(): string {
  const hash = createHash('sha256');
  const root = path.resolve(__dirname, '..');
  for (const file of bundleSources()) hash.update(path.relative(root, file)).update('\0').update(readFileSync(file)).update('\0');
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
