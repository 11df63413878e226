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
import { payloadKeyringFromConfig } from '../workers/payload-codec';
import { createPayloadKeyring, encryptingDataConverter } from '../platform/temporal-payload-codec';
import { TEST_TEMPORAL_PAYLOAD_KEY } from '../test/helpers/temporal-codec';

async function main(): Promise<number> {
  const given = process.argv.slice(2);
  const histories = readHistories(given.length ? given : [path.resolve(__dirname, '..', 'test', 'replay', 'histories')]);
  if (histories.length === 0) throw new Error('no history (*.json) found');
  const config = loadConfig();
  // Exported histories are encrypted under this deployment's keys; the recorded ones under the tests' key.
  const keyring = payloadKeyringFromConfig(config);
  const keys = [keyring.current.key, ...config.TEMPORAL_PAYLOAD_KEYS_OLD.map((k) => Buffer.from(k, 'base64'))];
  if (!given.length) keys.push(Buffer.from(TEST_TEMPORAL_PAYLOAD_KEY, 'base64'));
  const dataConverter = encryptingDataConverter(createPayloadKeyring(keys[0]!, keys.slice(1)));
  const outcomes = await replayHistories(histories, await loadWorkflowBundle(config.dataDir), dataConverter);
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
