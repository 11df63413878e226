/**
 * `/api/notifications` (session cookie): the account's notifications, newest first with a cursor,
 * the unread count; mark one or all read. Another account's notification → 403; unknown → 404.
 */
import { Router } from 'express';
import { toRecord } from '../../lib/notifications';
import type { AppDeps } from '../app';
import { authenticate } from '../middleware/auth';
import { ownedBy } from '../ownership';
import { listNotificationsQuery } from '../schemas/account-functions';
import { parseBody } from '../validate';
import { NEWEST_FIRST, afterCursor, decodeCursor, page } from './pagination';
import { rejectMalformedIds } from '../params';

export function notificationRoutes(deps: AppDeps): Router {
  const router = Router();
  rejectMalformedIds(router, 'id');
  const session = authenticate(deps, { apiKey: false, session: true });
  const unreadCount = (userId: string) => deps.db.notification.count({ where: { userId, readAt: null } });

  router.get('/api/notifications', session, async (req, res) => {
    const userId = req.auth!.userId;
    const query = parseBody(listNotificationsQuery, req.query);
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
    res.json({ notifications: items.map(toRecord), unreadCount: unread, nextCursor });
  });

  router.post('/api/notifications/read-all', session, async (req, res) => {
    const userId = req.auth!.userId;
    const updated = await deps.db.notification.updateMany({ where: { userId, readAt: null }, data: { readAt: new Date() } });
    res.json({ updated: updated.count, unreadCount: await unreadCount(userId) });
  });

  router.post('/api/notifications/:id/read', session, async (req, res) => {
    const userId = req.auth!.userId;
    const id = String(req.params.id);
    const found = ownedBy(await deps.db.notification.findUnique({ where: { id } }), userId, 'notification');
    // Marking read twice keeps the first time.
    const row = found.readAt ? found : await deps.db.notification.update({ where: { id }, data: { readAt: new Date() } });
    res.json({ ...toRecord(row), unreadCount: await unreadCount(userId) });
  });

  return router;
}
