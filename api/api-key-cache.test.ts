/**
 * The cache of verified API keys (api/api-key-cache.ts), with a stand-in for the notification
 * connection and a clock that never moves: a revocation takes effect on the `apikey_changed`
 * event itself, not after a timer, and the cache serves nothing it could not be told about. The
 * same chain through the real PostgreSQL trigger and two API processes is tested end to end in
 * api/routes/user-templates.test.ts.
 */
import type { PgListener } from '../platform/pg-listener';
import { createApiKeyVerifier } from './api-key-cache';

function fakeListener() {
  const handlers = new Map<string, Array<(payload: string) => void>>();
  const stateHandlers: Array<(listening: boolean) => void> = [];
  let listening = true;
  const listener: PgListener = {
    listening: () => listening,
    on: (channel, handler) => handlers.set(channel, [...(handlers.get(channel) ?? []), handler]),
    onState: (handler) => stateHandlers.push(handler),
    close: () => Promise.resolve(),
  };
  return {
    listener,
    notify: (channel: string, payload: string) => handlers.get(channel)?.forEach((h) => h(payload)),
    setListening(value: boolean) {
      listening = value;
      stateHandlers.forEach((h) => h(value));
    },
  };
}

/** A plugin that knows two keys, each valid until `revoke`; counts its verifications. */
function fakePlugin() {
  const keys = new Map([
    ['key-a', { userId: 'u1', apiKeyId: 'k-a', expiresAt: null as Date | null, valid: true }],
    ['key-b', { userId: 'u2', apiKeyId: 'k-b', expiresAt: null as Date | null, valid: true }],
  ]);
  const calls: string[] = [];
  return {
    calls,
    revoke: (key: string) => (keys.get(key)!.valid = false),
    verifyWithPlugin(key: string) {
      calls.push(key);
      const entry = keys.get(key);
      return Promise.resolve(entry && entry.valid ? { userId: entry.userId, apiKeyId: entry.apiKeyId, expiresAt: entry.expiresAt } : null);
    },
  };
}

const FROZEN = 1_000_000;

describe('API key cache', () => {
  it('serves a verified key from memory, and refuses it on its apikey_changed event with no time passing', async () => {
    const { listener, notify } = fakeListener();
    const plugin = fakePlugin();
    const verifier = createApiKeyVerifier({ listener, verifyWithPlugin: plugin.verifyWithPlugin, touch: () => Promise.resolve(), now: () => FROZEN });

    expect(await verifier.verify('key-a')).toEqual({ userId: 'u1', apiKeyId: 'k-a' });
    expect(await verifier.verify('key-b')).toEqual({ userId: 'u2', apiKeyId: 'k-b' });
    expect(await verifier.verify('key-a')).toEqual({ userId: 'u1', apiKeyId: 'k-a' });
    // The second verification of key-a came from the cache.
    expect(plugin.calls).toEqual(['key-a', 'key-b']);

    // Revoked in the database: until the event, the cache would still serve it (that is what the event is for).
    plugin.revoke('key-a');
    expect(await verifier.verify('key-a')).toEqual({ userId: 'u1', apiKeyId: 'k-a' });
    notify('apikey_changed', 'k-a');
    // The clock has not moved: the refusal is the event's doing, not a timer's.
    expect(await verifier.verify('key-a')).toBeNull();
    expect(await verifier.verify('key-a')).toBeNull();
    // Another key's entry is untouched by that event.
    expect(await verifier.verify('key-b')).toEqual({ userId: 'u2', apiKeyId: 'k-b' });
    expect(plugin.calls).toEqual(['key-a', 'key-b', 'key-a', 'key-a']);
  });

  it('does not cache a verification that an invalidation overlapped (it may have read the key before the change)', async () => {
    const { listener, notify } = fakeListener();
    let release: () => void = () => undefined;
    const calls: string[] = [];
    const verifier = createApiKeyVerifier({
      listener,
      touch: () => Promise.resolve(),
      now: () => FROZEN,
      async verifyWithPlugin(key) {
        calls.push(key);
        if (calls.length === 1) await new Promise<void>((resolve) => (release = resolve));
        return { userId: 'u1', apiKeyId: 'k-a', expiresAt: null };
      },
    });
    const first = verifier.verify('key-a');
    await new Promise((resolve) => setImmediate(resolve));
    notify('apikey_changed', 'k-a');
    release();
    expect(await first).toEqual({ userId: 'u1', apiKeyId: 'k-a' });
    await verifier.verify('key-a');
    expect(calls).toEqual(['key-a', 'key-a']);
  });

  it('serves nothing from memory while the notification connection is down, and forgets everything it held', async () => {
    const { listener, setListening } = fakeListener();
    const plugin = fakePlugin();
    const verifier = createApiKeyVerifier({ listener, verifyWithPlugin: plugin.verifyWithPlugin, touch: () => Promise.resolve(), now: () => FROZEN });
    await verifier.verify('key-a');
    expect(verifier.size()).toBe(1);
    setListening(false);
    expect(verifier.size()).toBe(0);
    // A revocation now would send an event nobody hears: every request is verified by the plugin.
    plugin.revoke('key-a');
    expect(await verifier.verify('key-a')).toBeNull();
    expect(await verifier.verify('key-b')).toEqual({ userId: 'u2', apiKeyId: 'k-b' });
    expect(await verifier.verify('key-b')).toEqual({ userId: 'u2', apiKeyId: 'k-b' });
    expect(plugin.calls).toEqual(['key-a', 'key-a', 'key-b', 'key-b']);
    expect(verifier.size()).toBe(0);
    setListening(true);
    await verifier.verify('key-b');
    await verifier.verify('key-b');
    expect(plugin.calls).toEqual(['key-a', 'key-a', 'key-b', 'key-b', 'key-b']);
  });
});
