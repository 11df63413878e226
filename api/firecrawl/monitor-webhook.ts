/**
 * A Firecrawl monitor's `webhook` (docs/firecrawl.md "Monitors"). Our monitors send their events
 * (`monitor.changed`, `monitor.removed`, `monitor.failed`, docs/monitors.md "Events") to the
 * account's webhook endpoints, never to a per-monitor URL: so `webhook.url` becomes one of the
 * account's endpoints subscribed to those events (the same checks as POST /api/webhooks: the
 * webhook target guard, at most MAX_WEBHOOK_ENDPOINTS), unless one for that URL already takes
 * them. A monitor's `webhook` reads back as the account's endpoint that takes its events.
 */
import { randomUUID } from 'node:crypto';
import { AppError } from '../../platform/errors';
import { encryptSecret, generateSigningSecret } from '../../webhooks/signing';
import { apiWebhooks } from '../webhooks';
import { MAX_WEBHOOK_ENDPOINTS } from '../routes/webhooks';
import type { AppDeps } from '../deps';

export const MONITOR_EVENTS = ['monitor.changed', 'monitor.removed', 'monitor.failed'] as const;

const takesMonitorEvents = (events: string[]) => events.length === 0 || events.includes('monitor.changed');

/** An endpoint of the account for `url` that takes the monitor events: the one there, or a new one. */
export async function ensureMonitorEndpoint(deps: AppDeps, userId: string, url: string): Promise<void> {
  const webhooks = apiWebhooks(deps);
  await webhooks.guard.check(url);
  const existing = await deps.db.webhookEndpoint.findMany({ where: { userId, url, deletedAt: null } });
  if (existing.some((e) => takesMonitorEvents(e.events))) return;
  if ((await deps.db.webhookEndpoint.count({ where: { userId, deletedAt: null } })) >= MAX_WEBHOOK_ENDPOINTS) {
    throw new AppError('CONFLICT', `An account may have at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints; delete one first (DELETE /api/webhooks/:id)`);
  }
  await deps.db.webhookEndpoint.create({
    data: {
      id: `we_${randomUUID().replaceAll('-', '')}`,
      userId,
      url,
      description: 'monitor events (created by a Firecrawl monitor webhook)',
      events: [...MONITOR_EVENTS],
      secretCiphertext: encryptSecret(webhooks.settings.secretKey, generateSigningSecret()),
    },
  });
  webhooks.changed(userId);
}

/** Where the account's monitor events go: its newest endpoint that takes them. */
export async function monitorEndpoint(deps: AppDeps, userId: string): Promise<{ url: string; events: string[] } | null> {
  const endpoints = await deps.db.webhookEndpoint.findMany({ where: { userId, deletedAt: null }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
  const found = endpoints.find((e) => takesMonitorEvents(e.events));
  return found ? { url: found.url, events: found.events.length ? found.events : [...MONITOR_EVENTS] } : null;
}
