// The page's build (`npm run build` of apps/web): Vite, only when the page's inputs changed since dist/ was
// built. `npm start`, `start:api` and `start:worker` each build first; building an unchanged page again
// emptied the dist/ an API process was serving (and the browser tests were reading) for the seconds Vite takes.
// The inputs' SHA-256 is kept in dist/.inputs-sha256. The budget of the page's initial JavaScript is checked
// after every build, rebuilt or not.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const web = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(web, 'dist');
const stamp = path.join(dist, '.inputs-sha256');
// What the built page is made of: its sources and settings, and the packages the lock file pins.
const INPUTS = [
  'index.html',
  'vite.config.ts',
  'package.json',
  'tsconfig.json',
  'src',
  'public',
  '../../package-lock.json',
];

function files(entry) {
  const full = path.join(web, entry);
  if (!existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return [entry];
  return readdirSync(full)
    .sort()
    .flatMap((name) => files(path.join(entry, name)));
}

const hash = createHash('sha256');
for (const file of INPUTS.flatMap(files)) hash.update(`${file}\u0000`).update(readFileSync(path.join(web, file)));
const inputs = hash.digest('hex');

const built = existsSync(path.join(dist, 'index.html')) && existsSync(stamp) && readFileSync(stamp, 'utf8') === inputs;
if (!built) {
  await build({ root: web, logLevel: 'warn' });
  writeFileSync(stamp, inputs);
}
await import('./budget.mjs');
