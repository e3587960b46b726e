import path from 'node:path';

export const ROOT = path.resolve(__dirname, '..', '..');
export const STANDALONE_MAIN = path.join(ROOT, 'apps', 'api', 'dist', 'standalone.js');
export const API_MAIN = path.join(ROOT, 'apps', 'api', 'dist', 'main.js');
export const CLI_MAIN = path.join(ROOT, 'apps', 'api', 'dist', 'cli.js');

/** A small JSON client for a service under test. */
export function client(base: string, key?: string) {
  return async <T = any>(method: string, route: string, body?: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${base}${route}`, {
      method,
      headers: {
        ...(key ? { 'X-API-Key': key } : {}),
        ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    let json: T;
    try {
      json = JSON.parse(text) as T;
    } catch {
      json = text as unknown as T;
    }
    return { status: response.status, body: json, headers: response.headers };
  };
}
