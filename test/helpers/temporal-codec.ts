/**
 * The Temporal payload key of the test stacks (test/helpers/stack.ts sets TEMPORAL_PAYLOAD_KEY to
 * it): a fixed test value, so a test's own Temporal client decodes what the stack's processes
 * wrote (workflow results, queries, memos) with the same codec they use (workers/payload-codec.ts).
 */
import type { DataConverter } from '@temporalio/common';
import { createPayloadKeyring, encryptingDataConverter } from '../../platform/temporal-payload-codec';

export const TEST_TEMPORAL_PAYLOAD_KEY = Buffer.from('scrape-api tests: temporal payloads').subarray(0, 32).toString('base64');

/** The data converter of a test's own client, for workflows of a test stack. */
export function testDataConverter(key = TEST_TEMPORAL_PAYLOAD_KEY): DataConverter {
  return encryptingDataConverter(createPayloadKeyring(Buffer.from(key, 'base64')));
}
