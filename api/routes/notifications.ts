/**
 * `/api/notifications` (session cookie): the account's notifications, newest first with a cursor,
 * the unread count; mark one or all read. Another account's notification → 403; unknown → 404.
 */
import { Router } from 'express';
import { z } from 'zod';
import { toRecord } from '../../notifications/notifications';
import { ownedBy } from '../ownership';
import { type Route, badRequest, mountRoutes, reply, route } from '../route-table';
import { listNotificationsQuery } from '../schemas/account-functions';
import { notificationSchema } from '../schemas/responses';
import { NEWEST_FIRST, afterCursor, decodeCursor, page } from './pagination';
import type { AppDeps } from '../deps';

export function notificationRouteTable(deps: AppDeps): Route[] {
  const unreadCount = (userId: string) => deps.db.notification.count({ where: { userId, readAt: null } });
  return [
    route({
      method: 'get',
      path: '/api/notifications',
      credential: 'session',
      tag: 'account',
      summary: "The account's notifications, newest first, and the unread count",
      query: badRequest(listNotificationsQuery),
      responses: { 200: z.object({ notifications: z.array(notificationSchema), unreadCount: z.int(), nextCursor: z.string().nullable() }) },
      errors: ['BAD_REQUEST'],
      handler: async ({ auth: { userId }, query }) => {
        const cursor = decodeCursor(query.cursor);
        const [rows, unread] = await Promise.all([
          deps.db.notification.findMany({
            where: { userId, ...(query.unread === 'true' ? { readAt: null } : {}), ...afterCursor(cursor) },
            orderBy: NEWEST_FIRST,
            take: query.limit + 1,
          }),
          unreadCount(userId),
        ]);
        const { items, nextCursor } = page(rows, query.limit);
        return reply(200, { notifications: items.map(toRecord), unreadCount: unread, nextCursor });
      },
    }),
    route({
      method: 'post',
      path: '/api/notifications/read-all',
      credential: 'session',
      tag: 'account',
      summary: 'Mark every notification read',
      responses: { 200: z.object({ updated: z.int(), unreadCount: z.int() }) },
      errors: [],
      handler: async ({ auth: { userId } }) => {
        const updated = await deps.db.notification.updateMany({ where: { userId, readAt: null }, data: { readAt: new Date() } });
        return reply(200, { updated: updated.count, unreadCount: await unreadCount(userId) });
      },
    }),
    route({
      method: 'post',
      path: '/api/notifications/:id/read',
      params: ['id'],
      credential: 'session',
      tag: 'account',
      summary: 'Mark one notification read',
      responses: { 200: notificationSchema.extend({ unreadCount: z.int() }) },
      errors: ['NOT_FOUND', 'FORBIDDEN'],
      handler: async ({ auth: { userId }, params: { id } }) => {
        const found = ownedBy(await deps.db.notification.findUnique({ where: { id } }), userId, 'notification');
        // Marking read twice keeps the first time.
        const row = found.readAt ? found : await deps.db.notification.update({ where: { id }, data: { readAt: new Date() } });
        return reply(200, { ...toRecord(row), unreadCount: await unreadCount(userId) });
      },
    }),
  ];
}

export function notificationRoutes(deps: AppDeps): Router {
  return mountRoutes(Router(), deps, notificationRouteTable(deps));
}
