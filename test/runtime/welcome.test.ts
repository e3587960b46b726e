import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { INITIAL_ADMIN_KEY_FILE, logWelcome, pageUrl } from '@research/runtime';
import { captureLogger } from '../search/support/capture-logger';

describe('the line a started service logs for the person who started it', () => {
  it('gives the page an address a browser opens: localhost for a wildcard host, brackets for IPv6', () => {
    expect(pageUrl('0.0.0.0', 8000)).toBe('http://localhost:8000/');
    expect(pageUrl('::', 8000)).toBe('http://localhost:8000/');
    expect(pageUrl('127.0.0.1', 18000)).toBe('http://127.0.0.1:18000/');
    expect(pageUrl('::1', 8000)).toBe('http://[::1]:8000/');
  });

  it('names the first key file while it is there, and how to make a key once it is gone', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'welcome-'));
    try {
      const config = { host: '0.0.0.0', port: 8000, dataDir: dir };
      fs.writeFileSync(path.join(dir, INITIAL_ADMIN_KEY_FILE), 'rsk_secret\n');
      const first = captureLogger();
      logWelcome(config, first.logger);
      expect(JSON.parse(first.lines[0]!).message).toBe(
        `open http://localhost:8000/ in a browser and sign in with the first administrator key, in ${path.join(dir, INITIAL_ADMIN_KEY_FILE)}`,
      );
      expect(first.text()).not.toContain('rsk_secret');
      fs.rmSync(path.join(dir, INITIAL_ADMIN_KEY_FILE));
      const later = captureLogger();
      logWelcome(config, later.logger);
      expect(JSON.parse(later.lines[0]!).message).toBe(
        'open http://localhost:8000/ in a browser and sign in with an API key (npm run cli -- keys create <username>)',
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
