import { Context, sleep } from '@temporalio/activity';
import type { EchoInput, EchoOutput } from '../workflows/definitions';

export async function echo(input: EchoInput): Promise<EchoOutput> {
  const ctx = Context.current();
  // Heartbeat while waiting so a cancelled or timed-out workflow stops us promptly.
  const deadline = Date.now() + input.delayMs;
  while (Date.now() < deadline) {
    ctx.heartbeat();
    await sleep(Math.min(1000, deadline - Date.now()));
  }
  return { message: input.message, workerPid: process.pid, attempt: ctx.info.attempt };
}
