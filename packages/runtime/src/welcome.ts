import fs from 'node:fs';
import path from 'node:path';
import type { AppConfig } from '@research/core';
import type { Logger } from '@research/observability';
import { INITIAL_ADMIN_KEY_FILE } from './initial-admin';

/** The address a person opens for the web page of a service listening on `host`: localhost for a wildcard host. */
export function pageUrl(host: string, port: number): string {
  const name = host === '0.0.0.0' || host === '::' || host === '' ? 'localhost' : host;
  return `http://${name.includes(':') ? `[${name}]` : name}:${port}/`;
}

/**
 * One plain line for the person who started the service, once it listens: the page to open, and where the first
 * administrator key is (the file the first start wrote, while it is there), or how to make a key.
 */
export function logWelcome(config: Pick<AppConfig, 'host' | 'port' | 'dataDir'>, logger: Logger): void {
  const url = pageUrl(config.host, config.port);
  const keyFile = path.resolve(config.dataDir, INITIAL_ADMIN_KEY_FILE);
  const hasKeyFile = fs.existsSync(keyFile);
  const key = hasKeyFile
    ? `sign in with the first administrator key, in ${keyFile}`
    : 'sign in with an API key (npm run cli -- keys create <username>)';
  logger.info(`open ${url} in a browser and ${key}`, { url, ...(hasKeyFile ? { key_file: keyFile } : {}) });
}
