/**
 * A FIFO semaphore: at most `size` scrapes hold a slot (a context), the others wait in arrival
 * order, at most `maxQueue` of them. A waiter whose signal aborts leaves the queue.
 */
import { AppError } from '../../platform/errors';

export interface Slots {
  /** Resolves when the caller holds a slot; rejects with `signal.reason` or BROWSER_UNAVAILABLE. */
  acquire(signal: AbortSignal): Promise<void>;
  release(): void;
  /** Refuses every waiter (the pool is closing) and every later `acquire`. */
  close(err: unknown): void;
  readonly active: number;
  readonly queued: number;
}

export function createSlots(size: number, maxQueue: number): Slots {
  let active = 0;
  let closedWith: { err: unknown } | null = null;
  const queue: Array<{ grant: () => void; fail: (err: unknown) => void }> = [];

  return {
    acquire(signal) {
      if (closedWith) return Promise.reject(closedWith.err);
      if (active < size && queue.length === 0) {
        active++;
        return Promise.resolve();
      }
      if (queue.length >= maxQueue) return Promise.reject(new AppError('BROWSER_UNAVAILABLE', 'browser queue is full'));
      return new Promise<void>((resolve, reject) => {
        const entry = {
          grant: () => {
            signal.removeEventListener('abort', onAbort);
            active++;
            resolve();
          },
          fail: (err: unknown) => {
            signal.removeEventListener('abort', onAbort);
            reject(err);
          },
        };
        const onAbort = () => {
          const i = queue.indexOf(entry);
          if (i !== -1) queue.splice(i, 1);
          reject(signal.reason);
        };
        if (signal.aborted) return onAbort();
        signal.addEventListener('abort', onAbort, { once: true });
        queue.push(entry);
      });
    },
    release() {
      active--;
      queue.shift()?.grant();
    },
    close(err) {
      closedWith = { err };
      for (const entry of queue.splice(0)) entry.fail(err);
    },
    get active() {
      return active;
    },
    get queued() {
      return queue.length;
    },
  };
}
