/**
 * Today's workflow code replays every recorded history (test/replay/histories: real runs recorded
 * by `npm run record-histories`; docs/workflows-versioning.md). A change that makes a workflow
 * issue other commands than a recorded run did fails here, naming the history and the SDK's
 * nondeterminism error: after a deploy, every run of that shape still in flight would fail its
 * workflow tasks the same way. The replay uses the bundle the workers run (workers/workflow-bundle.ts).
 */
import path from 'node:path';
import { parseConfig } from '../platform/config';
import { loadWorkflowBundle } from '../workers/workflow-bundle';
import { readHistories, replayHistories } from '../workers/workflow-replay';
import { secretsIn } from '../test/replay/history-shape';
import { testDataConverter } from '../test/helpers/temporal-codec';
import * as registered from './index';

jest.setTimeout(300_000);

const histories = readHistories([path.resolve(__dirname, '..', 'test', 'replay', 'histories')]);

describe('recorded workflow histories', () => {
  it('cover every workflow type the workers register', () => {
    const recorded = new Set(histories.map((stored) => stored.workflowType));
    // A new workflow type needs a case in test/replay/record-histories.ts and a recording.
    expect(Object.keys(registered).filter((type) => !recorded.has(type))).toEqual([]);
  });

  it('hold no secret (API key, webhook secret, session token)', () => {
    expect(histories.flatMap((stored) => secretsIn(stored.history).map((found) => `${stored.name}: ${found}`))).toEqual([]);
  });

  it("replay against today's workflow code", async () => {
    // Through the workers' codec (the tests' key): encrypted histories decode, older plain ones pass through.
    const outcomes = await replayHistories(histories, await loadWorkflowBundle(parseConfig(process.env).dataDir), testDataConverter());
    expect(outcomes.map((outcome) => outcome.name)).toEqual(histories.map((stored) => stored.name));
    expect(outcomes.filter((outcome) => outcome.error).map((outcome) => `${outcome.name}: ${outcome.error}`)).toEqual([]);
  });
});
