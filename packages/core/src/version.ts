// Read at runtime so /health always reports the version of the package that is installed.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const pkg = require('../package.json') as { version: string };

/** The service version, from packages/core/package.json. */
export const VERSION: string = pkg.version;
