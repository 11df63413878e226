/**
 * Polls `probe` every 200 ms until it yields a truthy value, and returns it; fails naming `what`
 * after `timeoutMs`. Tests wait for conditions, never for the clock: the bound is generous, for a
 * machine loaded far beyond its cores, and only a failure waits for all of it.
 */
export async function waitFor<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not seen within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
