import { validationError, withTimeout, type AppConfig } from '@research/core';
import { checkCallbackUrl, createAddressPolicy, isCrawlError, systemResolver } from '@research/crawler';
import { listWebhookAttempts, type Database, type WebhookAttemptRead } from '@research/database';

// A host name that takes longer than this to resolve is refused rather than holding the request.
const RESOLVE_TIMEOUT_MS = 5_000;

/**
 * The callback_url a new run may store: null when none is given; 422 `callback_url: …` when webhooks are
 * not configured (no WEBHOOK_SECRET) or the crawler's rules refuse the URL (scheme, credentials, a host that
 * does not resolve or resolves to an address the crawler may not reach). Checked again at every delivery.
 */
export async function checkedCallbackUrl(
  config: Pick<AppConfig, 'webhooks' | 'crawler'>,
  raw: string | null,
): Promise<string | null> {
  if (raw === null) return null;
  if (!config.webhooks.secret) {
    throw validationError('callback_url', 'webhooks are not enabled on this service (WEBHOOK_SECRET is not set)');
  }
  const guard = {
    resolver: systemResolver,
    policy: createAddressPolicy({ allowPrivateNetworks: config.crawler.allowPrivateNetworks }),
  };
  try {
    const url = await withTimeout(checkCallbackUrl(raw, guard), RESOLVE_TIMEOUT_MS, 'resolving callback_url');
    return url.toString();
  } catch (error) {
    if (isCrawlError(error)) throw validationError('callback_url', error.message);
    if (error instanceof Error && error.name === 'TimeoutError') {
      throw validationError('callback_url', 'the host did not resolve in time');
    }
    throw error;
  }
}

/** The attempts to deliver a visible run's webhook, oldest first (none for a run without callback_url). */
export function listWebhookDeliveries(db: Database, runId: string): Promise<WebhookAttemptRead[]> {
  return listWebhookAttempts(db, runId);
}
