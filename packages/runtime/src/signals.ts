import type { Logger } from '@research/observability';

/**
 * Stops the process in order on SIGTERM/SIGINT; exits 0 when stop() finished, 1 after the deadline.
 * A second signal does not restart the stop.
 */
export function installShutdown(stop: () => Promise<void>, options: { timeoutMs: number; logger: Logger }): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    options.logger.info('shutting down', { signal });
    const deadline = setTimeout(() => {
      options.logger.error('shutdown deadline passed, exiting', { timeout_ms: options.timeoutMs });
      process.exit(1);
    }, options.timeoutMs);
    deadline.unref();
    stop().then(
      () => process.exit(0),
      (error: unknown) => {
        options.logger.error('shutdown failed', { error });
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}
