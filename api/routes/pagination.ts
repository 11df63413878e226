/**
 * Keyset pagination over (createdAt DESC, id DESC): the cursor is opaque to clients
 * (base64url of `<ISO time>|<id>` of the last item of the previous page).
 */
import { AppError } from '../../platform/errors';
import { idSchema } from '../params';

export interface Cursor {
  createdAt: Date;
  id: string;
}

export function encodeCursor(item: { createdAt: Date; id: string }): string {
  return Buffer.from(`${item.createdAt.toISOString()}|${item.id}`).toString('base64url');
}

export function decodeCursor(cursor: string | undefined): Cursor | undefined {
  if (cursor === undefined) return undefined;
  const [time, id, ...rest] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const createdAt = new Date(time ?? '');
  // The id goes into a query: only what an id can be (a NUL byte would make PostgreSQL fail).
  const parsedId = idSchema.safeParse(id);
  if (rest.length > 0 || !parsedId.success || Number.isNaN(createdAt.getTime())) throw new AppError('BAD_REQUEST', 'cursor is not valid');
  return { createdAt, id: parsedId.data };
}

/** Prisma `where` fragment: rows strictly after the cursor in (createdAt DESC, id DESC) order. */
export function afterCursor(cursor: Cursor | undefined) {
  if (!cursor) return {};
  return { OR: [{ createdAt: { lt: cursor.createdAt } }, { createdAt: cursor.createdAt, id: { lt: cursor.id } }] };
}

export const NEWEST_FIRST = [{ createdAt: 'desc' as const }, { id: 'desc' as const }];

/** Cuts a page fetched with `limit + 1` rows: the rows to show and the next cursor (null on the last page). */
export function page<T extends { createdAt: Date; id: string }>(rows: T[], limit: number): { items: T[]; nextCursor: string | null } {
  const items = rows.slice(0, limit);
  return { items, nextCursor: rows.length > limit ? encodeCursor(items[items.length - 1]!) : null };
}
