/**
 * Pre-warmed contexts: up to `target` prepared contexts (context.ts) per Chromium, made before a
 * request needs them, so a scrape starts at `goto`. Each is handed out once and closed by its
 * scrape; the pool decides when to refill. Spares of a Chromium that is retiring or gone are
 * dropped (closed, or closed as soon as their preparation ends).
 */
import type { Chromium } from './chromium';
import type { PreparedContext } from './context';

export interface SpareStore {
  /** Starts preparing contexts for `owner` until `target` are ready or under way. */
  fill(owner: Chromium): void;
  /**
   * A spare of `owner`, handed out for good: the first ready one, else the oldest under way
   * (sooner than a new one). Null when there is none; the promise rejects if its preparation fails.
   */
  take(owner: Chromium): Promise<PreparedContext> | null;
  /** Forgets every spare of `owner` and closes it (`owner` retires or died). */
  drop(owner: Chromium): void;
  /** Spares ready to be taken. */
  ready(): number;
  /** Stops filling and drops every spare. */
  close(): void;
}

interface Entry {
  owner: Chromium;
  promise: Promise<PreparedContext>;
  ready: PreparedContext | null;
  state: 'kept' | 'taken' | 'dropped';
}

export function createSpareStore(opts: {
  target: number;
  prepare: (owner: Chromium) => Promise<PreparedContext>;
  /** A preparation failed while its Chromium was still in service. */
  onError: (err: unknown) => void;
}): SpareStore {
  let entries: Entry[] = [];
  let stopped = false;

  const closeQuietly = (p: PreparedContext) => void p.context.close().catch(() => undefined);

  const drop = (entry: Entry) => {
    entry.state = 'dropped';
    if (entry.ready) closeQuietly(entry.ready);
  };

  function fill(owner: Chromium): void {
    if (stopped || owner.retiring || !owner.browser.isConnected()) return;
    let count = entries.filter((e) => e.owner === owner).length;
    for (; count < opts.target; count++) {
      const entry: Entry = { owner, promise: opts.prepare(owner), ready: null, state: 'kept' };
      entries.push(entry);
      entry.promise.then(
        (prepared) => {
          if (entry.state === 'kept') entry.ready = prepared;
          else if (entry.state === 'dropped') closeQuietly(prepared);
        },
        (err: unknown) => {
          entries = entries.filter((e) => e !== entry);
          // No refill here: a Chromium that cannot make contexts would loop. The pool refills later.
          if (entry.state === 'kept' && !stopped && !owner.retiring && owner.browser.isConnected()) opts.onError(err);
        },
      );
    }
  }

  return {
    fill,
    take(owner) {
      const mine = entries.filter((e) => e.owner === owner);
      const entry = mine.find((e) => e.ready) ?? mine[0];
      if (!entry) return null;
      entries = entries.filter((e) => e !== entry);
      entry.state = 'taken';
      return entry.promise;
    },
    drop(owner) {
      for (const entry of entries.filter((e) => e.owner === owner)) drop(entry);
      entries = entries.filter((e) => e.owner !== owner);
    },
    ready: () => entries.filter((e) => e.ready).length,
    close() {
      stopped = true;
      for (const entry of entries) drop(entry);
      entries = [];
    },
  };
}
