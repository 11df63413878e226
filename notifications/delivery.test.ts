/**
 * Delivery beyond the in-app list: the e-mail channel through a stub transport and through
 * nodemailer's own JSON transport (no network), and `notify` against real PostgreSQL: a new
 * notification is delivered once, a replay (same dedupe key) is neither stored nor delivered
 * again, and a failing channel never fails `notify`.
 */
import { randomUUID } from 'node:crypto';
import nodemailer from 'nodemailer';
import { createTestDatabase } from '../test/helpers/database';
import { parseConfig } from '../platform/config';
import { createDatabase, type Database } from '../platform/db';
import { createLogger } from '../platform/logger';
import { createEmailDelivery, deliveryFromConfig, type MailTransport } from './delivery';
import { type NotificationDelivery, notify, setNotificationDelivery } from './notifications';

const logger = createLogger({ level: 'silent', name: 'test' });

describe('e-mail channel', () => {
  it('sends one message per notification to the account’s address', async () => {
    const sent: Parameters<MailTransport['sendMail']>[0][] = [];
    const delivery = createEmailDelivery({ transport: { sendMail: (m) => Promise.resolve(void sent.push(m)) }, from: 'svc <no-reply@example.test>' });
    await delivery.deliver(
      { userId: 'u1', email: 'ada@example.test', name: 'Ada' },
      { id: 'n1', type: 'payment.failed', title: 'A payment failed', data: { paymentId: 'p1' }, read: false, readAt: null, createdAt: '2026-11-22T00:00:00.000Z' },
    );
    expect(sent).toEqual([{ from: 'svc <no-reply@example.test>', to: 'ada@example.test', subject: 'A payment failed', text: expect.stringContaining('paymentId: p1') }]);
  });

  it('builds a real nodemailer message (JSON transport, no network)', async () => {
    const transport = nodemailer.createTransport({ jsonTransport: true });
    const captured: string[] = [];
    const delivery = createEmailDelivery({
      transport: { sendMail: async (m) => captured.push(((await transport.sendMail(m)) as { message: string }).message) },
      from: 'no-reply@example.test',
    });
    await delivery.deliver(
      { userId: 'u1', email: 'ada@example.test', name: 'Ada' },
      { id: 'n1', type: 'credit.low', title: 'Your credit is low: 3 left', data: { balance: 3 }, read: false, readAt: null, createdAt: '2026-11-22T00:00:00.000Z' },
    );
    const message = JSON.parse(captured[0]!) as { to: Array<{ address: string }>; subject: string; text: string };
    expect(message.to[0]!.address).toBe('ada@example.test');
    expect(message.subject).toBe('Your credit is low: 3 left');
  });

  it('is off by default and on with NOTIFY_EMAIL=true and SMTP_URL', () => {
    expect(deliveryFromConfig(parseConfig({}))).toBeUndefined();
    expect(deliveryFromConfig(parseConfig({ NOTIFY_EMAIL: 'true', SMTP_URL: 'smtp://127.0.0.1:2525' }))?.name).toBe('email');
    expect(() => parseConfig({ NOTIFY_EMAIL: 'true' })).toThrow(/NOTIFY_EMAIL: needs SMTP_URL/);
  });
});

describe('notify (real PostgreSQL)', () => {
  let db: Database;
  beforeAll(async () => {
    db = createDatabase(await createTestDatabase());
  });
  afterAll(async () => {
    setNotificationDelivery(undefined, logger);
    await db?.$disconnect();
  });

  async function account(): Promise<string> {
    const id = randomUUID();
    await db.user.create({ data: { id, name: 'Ada', email: `${id}@example.test`, emailVerified: false } });
    return id;
  }

  it('stores and delivers once per dedupe key; events without a key are each stored', async () => {
    const delivered: string[] = [];
    const channel: NotificationDelivery = { name: 'stub', deliver: (r, n) => Promise.resolve(void delivered.push(`${r.email} ${n.type}`)) };
    setNotificationDelivery(channel, logger);
    const userId = await account();
    const event = { type: 'flow.run.failed', flowId: 'f1', runId: 'r1', error: 'boom' } as const;
    await Promise.all(Array.from({ length: 5 }, () => notify(db, userId, event, { dedupeKey: 'flow:f1:r1:failed' })));
    await notify(db, userId, { type: 'payment.failed', paymentId: 'p1' });
    await notify(db, userId, { type: 'payment.failed', paymentId: 'p1' });
    const rows = await db.notification.findMany({ where: { userId }, orderBy: { createdAt: 'asc' } });
    expect(rows.map((r) => r.type)).toEqual(['flow.run.failed', 'payment.failed', 'payment.failed']);
    expect(rows[0]!.data).toEqual({ flowId: 'f1', runId: 'r1', error: 'boom' });
    expect(delivered).toEqual([`${userId}@example.test flow.run.failed`, `${userId}@example.test payment.failed`, `${userId}@example.test payment.failed`]);
  });

  it('a failing channel is logged, not thrown, and the notification is kept', async () => {
    setNotificationDelivery({ name: 'broken', deliver: () => Promise.reject(new Error('smtp down')) }, logger);
    const userId = await account();
    await expect(notify(db, userId, { type: 'key.revoked', apiKeyId: 'k1', name: 'ci' })).resolves.toBeUndefined();
    expect(await db.notification.count({ where: { userId } })).toBe(1);
  });
});
