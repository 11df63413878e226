import path from 'node:path';
import { bundleSources } from './workflow-bundle';

describe('workflow bundle key', () => {
  it('covers every file the workflows import at run time, in every folder, and no type-only import', () => {
    const root = path.resolve(__dirname, '..');
    const files = bundleSources().map((file) => path.relative(root, file));
    // Outside workflows/ (the table of errors, the engines) and in its subfolders (node types).
    expect(files).toEqual(expect.arrayContaining(['platform/errors.ts', 'scrape/engines.ts', 'workflows/flow-nodes/delay.ts', 'workflows/scrape.workflow.ts']));
    // Imported for their types only: erased from the bundle, so no rebuild when they change.
    expect(files.filter((file) => file.startsWith('activities/') || file === 'workflows/flow-nodes/kind.ts')).toEqual([]);
  });
});
