/**
 * Re-encryption of stored sessions after a key rotation (real PostgreSQL, and the operator command
 * itself): rows under an old key move to the current one, after which the old key can be dropped;
 * a row no configured key reads is reported by name and left as it is.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { type DatabaseWithUser, databaseWithOneUser } from '../test/helpers/database';
import type { SqlPool } from '../platform/sql';
import type { StorageState } from '../scrape/cookies';
import { createSessionKeyring } from './keys';
import { reencryptSessions } from './reencrypt';
import { createSessionStore } from './store';

const limits = { maxBytes: 1_000_000, perAccount: 50 };
const state = (value: string): StorageState => ({
  cookies: [{ name: 'sid', value, domain: 'shop.test', path: '/', expires: -1, httpOnly: true, secure: false, sameSite: 'Lax' }],
  origins: [],
});

describe('sessions re-encrypted under the current key', () => {
  let database: DatabaseWithUser | undefined;
  let url: string;
  let sql: SqlPool;
  let userId: string;

  beforeAll(async () => {
    database = await databaseWithOneUser();
    ({ url, sql, userId } = database);
  });

  afterAll(() => database?.close());

  it('moves rows off the old key, so the old key can be dropped; an unreadable row is named, not touched', async () => {
    const oldKey = randomBytes(32);
    const newKey = randomBytes(32);
    await createSessionStore(sql, createSessionKeyring(oldKey), limits).importState(userId, 'shop-login', state('old-secret'));
    await createSessionStore(sql, createSessionKeyring(randomBytes(32)), limits).importState(userId, 'lost-key', state('gone'));

    // Before: without the old key the session is unreadable.
    const newOnly = createSessionStore(sql, createSessionKeyring(newKey), limits);
    await expect(newOnly.load(userId, 'shop-login')).rejects.toMatchObject({ code: 'SESSION_UNREADABLE' });

    const outcome = await reencryptSessions(sql, createSessionKeyring(newKey, [oldKey]));
    expect(outcome).toEqual({ reencrypted: 1, current: 0, unreadable: [`${userId}/lost-key`] });

    // After: the new key alone reads it, with the same state.
    expect((await newOnly.load(userId, 'shop-login'))!.state.cookies.map((c) => c.value)).toEqual(['old-secret']);
    await expect(newOnly.load(userId, 'lost-key')).rejects.toMatchObject({ code: 'SESSION_UNREADABLE' });
    // A second run has nothing to do.
    expect(await reencryptSessions(sql, createSessionKeyring(newKey, [oldKey]))).toEqual({ reencrypted: 0, current: 1, unreadable: [`${userId}/lost-key`] });
  });

  it('npm run sessions:reencrypt: the configured keys, names of unreadable rows, exit 1 while one remains', async () => {
    const oldKey = randomBytes(32);
    const newKey = randomBytes(32);
    await sql.query(`DELETE FROM scrape_session`);
    await createSessionStore(sql, createSessionKeyring(oldKey), limits).importState(userId, 'cli-login', state('cli-secret'));
    const run = (env: Record<string, string>) =>
      promisify(execFile)(process.execPath, ['--import', 'tsx', path.join(__dirname, '..', 'scripts', 'sessions-reencrypt.ts')], {
        cwd: path.join(__dirname, '..'),
        env: { ...process.env, DATABASE_URL: url, ...env },
      });
    const done = await run({ SESSION_ENCRYPTION_KEY: newKey.toString('base64'), SESSION_ENCRYPTION_KEYS_OLD: oldKey.toString('base64') });
    expect(done.stdout).toContain('re-encrypted 1 session(s)');
    expect(done.stdout + done.stderr).not.toContain('cli-secret');
    expect((await createSessionStore(sql, createSessionKeyring(newKey), limits).load(userId, 'cli-login'))!.state.cookies[0]!.value).toBe('cli-secret');

    // Rotated again without keeping the previous key: the row is named and the command fails.
    const failed = await run({ SESSION_ENCRYPTION_KEY: randomBytes(32).toString('base64') }).catch((error: { code: number; stderr: string }) => error);
    expect(failed).toMatchObject({ code: 1 });
    expect((failed as { stderr: string }).stderr).toContain(`${userId}/cli-login`);
  });
});
