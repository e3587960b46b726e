#!/usr/bin/env node
import { runCli } from '@research/runtime';

// `npm run cli -- …` and `research-admin …` in the API image (CONTRACT 3).
runCli(process.argv.slice(2), {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
}).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`Error: ${(error as Error).message}\n`);
    process.exit(1);
  },
);
