import { AppError } from '../../platform/errors';

/** The AppError a promise rejects with; fails the test if it resolves or rejects with anything else. */
export async function appErrorOf(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof AppError)) throw new Error(`expected an AppError, got ${String(err)}`);
  return err;
}
