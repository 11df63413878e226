/**
 * A child started by a supervisor gets a pipe as stdin; when the supervisor dies (even by
 * SIGKILL) the pipe closes and we shut down, so no orphan API or worker outlives it.
 */
export function exitWithParent(shutdown: () => void): void {
  process.stdin.on('end', shutdown);
  process.stdin.on('error', shutdown);
  process.stdin.resume();
}
