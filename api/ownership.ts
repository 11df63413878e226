import { AppError } from '../platform/errors';

/**
 * The ownership rule for a looked-up resource (docs/api.md, "Ownership"): unknown → 404, another account's → 403.
 * Answers the row when `userId` owns it. `noun` names it in the messages ("flow", "API key").
 */
export function ownedBy<T extends { userId: string }>(row: T | null | undefined, userId: string, noun: string): T {
  if (!row) throw new AppError('NOT_FOUND', `No ${noun} with that id`);
  if (row.userId !== userId) throw new AppError('FORBIDDEN', `That ${noun} belongs to another account`);
  return row;
}
