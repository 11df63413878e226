/**
 * Re-sealing the secrets of saved definitions after a key rotation (real PostgreSQL): a flow and a
 * template sealed under the old key, and a monitor stored in clear before sealing existed, end
 * under the current key (the old one can then be dropped); a row no configured key opens is named
 * and left as it is.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { type DatabaseWithUser, databaseWithOneUser } from '../test/helpers/database';
import { type Database, toJsonColumn } from '../platform/db';
import type { SqlPool } from '../platform/sql';
import { DEFINITION_COLUMNS } from '../scripts/definition-columns';
import { sealFlowNodes, unsealFlowNodes } from '../flows/definition-secrets';
import { createSessionKeyring } from './keys';
import { sealRequestSecrets, unsealRequestSecrets } from './request-secrets';
import { resealDefinitions } from './reseal-definitions';

describe('saved definitions re-sealed under the current key', () => {
  let database: DatabaseWithUser | undefined;
  let db: Database;
  let sql: SqlPool;
  let userId: string;

  beforeAll(async () => {
    database = await databaseWithOneUser();
    ({ db, sql, userId } = database);
  });

  afterAll(() => database?.close());

  it('moves old-key and clear secrets to the current key; an unreadable row is named, not touched', async () => {
    const oldKey = randomBytes(32);
    const newKey = randomBytes(32);
    const old = createSessionKeyring(oldKey);
    const nodes = [{ id: 'login', type: 'scrape', config: { url: 'https://example.com', actions: [{ type: 'write', text: 'flow-s3cret' }] } }];
    const flow = await db.flow.create({ data: { userId, name: 'login', definition: toJsonColumn(sealFlowNodes(old, userId, nodes)) } });
    const template = await db.userTemplate.create({
      data: { userId, name: 't', request: toJsonColumn(sealRequestSecrets(old, { userId, kind: 'template' }, { url: '{{u}}', headers: { 'x-api-key': 'template-s3cret' } })), params: toJsonColumn([]) },
    });
    const clearRequest = { url: 'https://example.com', headers: { authorization: 'monitor-s3cret' } };
    const monitorId = randomUUID();
    await db.monitor.create({
      data: { id: monitorId, userId, scheduleId: `monitor-${monitorId}`, name: 'm', request: toJsonColumn(clearRequest), schedule: toJsonColumn({ every: '1h' }), compare: 'markdown', ignore: toJsonColumn({ selectors: [], patterns: [] }) },
    });
    const lost = await db.userTemplate.create({
      data: { userId, name: 'lost', request: toJsonColumn(sealRequestSecrets(createSessionKeyring(randomBytes(32)), { userId, kind: 'template' }, { url: 'https://example.com', body: 'gone' })), params: toJsonColumn([]) },
    });

    const outcome = await resealDefinitions(sql, createSessionKeyring(newKey, [oldKey]), DEFINITION_COLUMNS);
    expect(outcome).toEqual({ resealed: 3, unreadable: [`user_template/${lost.id}`] });

    const newOnly = createSessionKeyring(newKey);
    const rows = JSON.stringify(await sql.query(`SELECT row_to_json(t)::text FROM (SELECT definition AS v FROM flow UNION ALL SELECT request FROM user_template UNION ALL SELECT request FROM monitor) t`));
    expect(rows).not.toMatch(/s3cret/);
    const flowAfter = await db.flow.findUniqueOrThrow({ where: { id: flow.id } });
    expect(unsealFlowNodes(newOnly, userId, flowAfter.definition as unknown as typeof nodes)).toEqual(nodes);
    const templateAfter = await db.userTemplate.findUniqueOrThrow({ where: { id: template.id } });
    expect(unsealRequestSecrets(newOnly, { userId, kind: 'template' }, templateAfter.request)).toEqual({ url: '{{u}}', headers: { 'x-api-key': 'template-s3cret' } });
    const monitorAfter = await db.monitor.findUniqueOrThrow({ where: { id: monitorId } });
    expect(unsealRequestSecrets(newOnly, { userId, kind: 'monitor' }, monitorAfter.request)).toEqual(clearRequest);
    // Nothing left to do.
    expect(await resealDefinitions(sql, newOnly, DEFINITION_COLUMNS)).toEqual({ resealed: 0, unreadable: [`user_template/${lost.id}`] });
  });
});
