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
import { sealHeaderValues, sealRequestSecrets, unsealHeaderValues, unsealRequestSecrets } from './request-secrets';
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

  it("moves a Firecrawl job webhook's headers, in the job's row and in its deliveries, to the current key", async () => {
    const oldKey = randomBytes(32);
    const newKey = randomBytes(32);
    const owner = { userId, kind: 'crawl' } as const;
    const headers = { authorization: 'Bearer receiver-s3cret', 'x-custom': 'custom-s3cret' };
    const crawlId = randomUUID();
    // Sealed under the old key in the native webhook; in clear beside it, as rows before 2026-11-28 kept the webhook as sent.
    const request = {
      kind: 'batch',
      urls: ['https://example.com/'],
      scrape: {},
      webhook: { url: 'https://receiver.example/fc', firecrawl: { kind: 'batch_scrape', headers: sealHeaderValues(createSessionKeyring(oldKey), owner, headers) } },
      firecrawl: { version: 'v2', wanted: {}, webhook: { url: 'https://receiver.example/fc', headers } },
    };
    await db.crawl.create({ data: { id: crawlId, userId, kind: 'batch', request: toJsonColumn(request), workflowId: `crawl-${crawlId}`, pageCost: 1 } });
    // A delivery written before sealing: its headers in clear.
    const deliveryId = randomUUID();
    await db.webhookDelivery.create({ data: { id: deliveryId, eventId: randomUUID(), userId, url: 'https://receiver.example/fc', firecrawlHeaders: toJsonColumn(headers) } });

    const columns = DEFINITION_COLUMNS.filter((c) => c.table === 'crawl' || c.table === 'webhook_delivery');
    expect(await resealDefinitions(sql, createSessionKeyring(newKey, [oldKey]), columns)).toEqual({ resealed: 2, unreadable: [] });

    const newOnly = createSessionKeyring(newKey);
    const rows = JSON.stringify(await sql.query(`SELECT request::text AS v FROM crawl WHERE id = $1 UNION ALL SELECT "firecrawlHeaders"::text FROM webhook_delivery WHERE id = $2`, [crawlId, deliveryId]));
    expect(rows).not.toMatch(/s3cret/);
    const crawlAfter = await db.crawl.findUniqueOrThrow({ where: { id: crawlId } });
    expect(unsealHeaderValues(newOnly, owner, (crawlAfter.request as typeof request).webhook.firecrawl.headers)).toEqual(headers);
    expect(unsealHeaderValues(newOnly, owner, (crawlAfter.request as typeof request).firecrawl.webhook.headers)).toEqual(headers);
    const deliveryAfter = await db.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } });
    expect(unsealHeaderValues(newOnly, owner, deliveryAfter.firecrawlHeaders as Record<string, unknown>)).toEqual(headers);
    expect(await resealDefinitions(sql, newOnly, columns)).toEqual({ resealed: 0, unreadable: [] });
  });
});
