// The page's initial JavaScript (the entry script and the modules index.html preloads), gzipped as a
// server would send it: printed after every build, and the build fails above the budget. Printed on
// stderr, as the build's other messages: `npm run mcp` builds first and its stdout is the MCP protocol.
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const BUDGET_BYTES = 200 * 1000;
const dist = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
const scripts = [
  ...html.matchAll(/<script[^>]*type="module"[^>]*src="([^"]+)"/g),
  ...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g),
].map((m) => m[1]);
let total = 0;
for (const src of scripts)
  total += gzipSync(readFileSync(path.join(dist, src.replace(/^\//, ''))), { level: 9 }).length;
const kb = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;
console.error(`web: initial JavaScript ${kb(total)} gzipped in ${scripts.length} file(s) (budget ${kb(BUDGET_BYTES)})`);
if (scripts.length === 0 || total > BUDGET_BYTES) {
  console.error('web: the initial JavaScript is over its budget (or index.html loads none)');
  process.exit(1);
}
