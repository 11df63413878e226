/**
 * A stored session that no configured key reads (docs/errors.md SESSION_UNREADABLE; issue 37 §3,
 * key rotation): the failure names the session and is final, never a retried SCRAPE_FAILED.
 */
import { randomBytes } from 'node:crypto';
import { AppError, NON_RETRYABLE_CODES } from '../platform/errors';
import { createSessionKeyring, decryptState, encryptState } from './keys';

describe('a session no configured key reads', () => {
  const userId = 'user-1';
  const written = createSessionKeyring(randomBytes(32));
  const row = encryptState(written, userId, 'shop-login', '{"cookies":[],"origins":[]}');

  function failure(read: () => unknown): AppError {
    try {
      read();
    } catch (error) {
      return error as AppError;
    }
    throw new Error('expected the read to fail');
  }

  it('under a key dropped from configuration: SESSION_UNREADABLE naming the session, not retryable', () => {
    const error = failure(() => decryptState(createSessionKeyring(randomBytes(32)), userId, 'shop-login', row));
    expect(error).toBeInstanceOf(AppError);
    expect(error.code).toBe('SESSION_UNREADABLE');
    expect(error.message).toContain('shop-login');
    expect(NON_RETRYABLE_CODES).toContain('SESSION_UNREADABLE');
  });

  it('altered (or read as another account): SESSION_UNREADABLE too', () => {
    const error = failure(() => decryptState(written, 'user-2', 'shop-login', row));
    expect(error.code).toBe('SESSION_UNREADABLE');
    expect(error.message).toContain('shop-login');
  });

  it('a session under an old key still configured reads', () => {
    expect(decryptState(createSessionKeyring(randomBytes(32), [written.current.key]), userId, 'shop-login', row)).toBe('{"cookies":[],"origins":[]}');
  });
});
