/**
 * Replays workflow histories against this checkout's workflow code, as a deploy would meet them
 * (docs/workflows-versioning.md "Before a deploy"):
 *
 *   npm run replay-histories                        the recorded histories (test/replay/histories)
 *   npm run replay-histories -- <file or folder>…   histories exported from a cluster with
 *                                                   `temporal workflow show --workflow-id <id> --output json`
 *
 * Prints one line per history and exits 1 when any of them does not replay.
 */
import path from 'node:path';
import { loadConfig } from '../platform/config';
import { loadWorkflowBundle } from '../workers/workflow-bundle';
import { readHistories, replayHistories } from '../workers/workflow-replay';

async function main(): Promise<number> {
  const given = process.argv.slice(2);
  const histories = readHistories(given.length ? given : [path.resolve(__dirname, '..', 'test', 'replay', 'histories')]);
  if (histories.length === 0) throw new Error('no history (*.json) found');
  const outcomes = await replayHistories(histories, await loadWorkflowBundle(loadConfig().dataDir));
  for (const outcome of outcomes) console.log(`${outcome.error ? 'FAIL' : 'ok  '} ${outcome.name} (${outcome.workflowType})${outcome.error ? `\n     ${outcome.error}` : ''}`);
  const failed = outcomes.filter((outcome) => outcome.error).length;
  console.log(`${outcomes.length - failed} of ${outcomes.length} replayed`);
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
