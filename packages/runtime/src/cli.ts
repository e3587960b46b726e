import yargs from 'yargs';
import { AppError, ConfigError, isUuid, type AppConfig } from '@research/core';
import { loadServiceConfig } from './config';
import { createApiKey } from '@research/auth';
import { listApiKeys, listUsers, revokeApiKey, setUserAdmin } from '@research/database';
import { openServices, type Services } from './services';
import { verifyRunEvidence } from './verify-run';

export interface CliIo {
  out(line: string): void;
  err(line: string): void;
}

const USERNAME = /^[A-Za-z0-9._@-]{1,64}$/;

class UsageError extends Error {}

function iso(date: Date | null): string | null {
  return date ? date.toISOString() : null;
}

function checkUsername(username: unknown): string {
  const name = String(username ?? '');
  if (!USERNAME.test(name)) {
    throw new UsageError(`Invalid username '${name}': use 1 to 64 of letters, digits, '.', '_', '@', '-'.`);
  }
  return name;
}

function table(rows: Array<Record<string, unknown>>, columns: string[]): string[] {
  const cell = (v: unknown) => (v === null || v === undefined ? '-' : String(v));
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]).length)));
  const line = (values: string[]) =>
    values
      .map((v, i) => v.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(columns), ...rows.map((r) => line(columns.map((c) => cell(r[c]))))];
}

/** Opens the services on first use, so that `--help` and usage errors need no database. */
type WithServices = <T>(fn: (s: Services) => Promise<T>) => Promise<T>;

interface CommandContext {
  io: CliIo;
  withServices: WithServices;
}

async function createKey(
  { io, withServices }: CommandContext,
  args: { username: string; name?: string; 'expires-in-days'?: number; json: boolean },
): Promise<void> {
  const username = checkUsername(args.username);
  const days = args['expires-in-days'];
  if (days !== undefined && (!Number.isFinite(days) || days <= 0 || days > 36_500)) {
    throw new UsageError('--expires-in-days must be a number of days between 1 and 36500.');
  }
  const created = await withServices((s) =>
    createApiKey(s.db, { username, name: args.name ?? null, expiresInDays: days ?? null }),
  );
  if (args.json) {
    io.out(
      JSON.stringify({
        id: created.id,
        username: created.username,
        key: created.key,
        expires_at: iso(created.expires_at),
      }),
    );
  } else {
    io.out(
      `Created key ${created.id} for ${created.username}${created.expires_at ? ` (expires ${iso(created.expires_at)})` : ''}.`,
    );
    io.out(`Key (shown once, store it now): ${created.key}`);
  }
}

async function listKeys({ io, withServices }: CommandContext, args: { user?: string; json: boolean }): Promise<void> {
  const rows = await withServices((s) => listApiKeys(s.db, args.user));
  const items = rows.map((r) => ({
    id: r.id,
    username: r.username,
    name: r.name,
    created_at: iso(r.created_at),
    expires_at: iso(r.expires_at),
    revoked_at: iso(r.revoked_at),
    revoked: r.revoked_at !== null,
    last_used_at: iso(r.last_used_at),
  }));
  if (args.json) io.out(JSON.stringify(items));
  else
    table(items, ['id', 'username', 'name', 'created_at', 'expires_at', 'revoked', 'last_used_at']).forEach((l) =>
      io.out(l),
    );
}

/**
 * `verify <research_id>`: re-checks every source's text against its hash and every claim's span against
 * that text. Prints what fails (one line each, or JSON) and answers exit code 1 when anything does.
 */
async function verifyRun(
  { io, withServices }: CommandContext,
  args: { research_id: string; json: boolean },
): Promise<number> {
  const id = String(args.research_id);
  if (!isUuid(id)) throw new UsageError(`Invalid research id '${id}': expected a UUID.`);
  const check = await withServices((s) => verifyRunEvidence(s.db, id));
  if (!check) throw new AppError('not_found', `No research run '${id}'.`);
  const { failures } = check;
  if (args.json) io.out(JSON.stringify(check));
  else {
    for (const f of failures) {
      io.out(
        f.claim_id ? `claim ${f.claim_id} (source ${f.source_id}): ${f.reason}` : `source ${f.source_id}: ${f.reason}`,
      );
    }
    io.out(
      failures.length === 0
        ? `Verified ${check.sources} sources and ${check.claims} claims of ${id}: all hold.`
        : `${failures.length} of ${check.sources + check.claims} checks failed for ${id}.`,
    );
  }
  return failures.length === 0 ? 0 : 1;
}

/**
 * The key-administration tool (CONTRACT 3), and `verify`. Returns the exit code: 0 success, 1 error, 2 usage error.
 * Keys are printed once at creation and never again; lists never show a key or its hash.
 */
export async function runCli(argv: string[], io: CliIo, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let config: AppConfig;
  try {
    config = loadServiceConfig(env);
  } catch (error) {
    io.err(error instanceof ConfigError ? error.message : String(error));
    return 1;
  }
  let services: Services | undefined;
  const withServices: WithServices = async (fn) => {
    services ??= await openServices(config, 'cli');
    return fn(services);
  };

  let exitCode = 0;
  const parser = yargs(argv)
    .scriptName('research-admin')
    .usage('$0 <command> [options]')
    .command('keys', 'create, list and revoke API keys', (y) =>
      y
        .command(
          'create <username>',
          'create a key (and the user if new); prints the key once',
          (c) =>
            c
              .positional('username', { type: 'string', demandOption: true })
              .option('name', { type: 'string', describe: 'a label for the key' })
              .option('expires-in-days', { type: 'number', describe: 'the key expires after N days' })
              .option('json', { type: 'boolean', default: false }),
          (args) => createKey({ io, withServices }, args),
        )
        .command(
          'list',
          'list keys (never the key or its hash)',
          (c) => c.option('user', { type: 'string' }).option('json', { type: 'boolean', default: false }),
          (args) => listKeys({ io, withServices }, args),
        )
        .command(
          'revoke <key-id>',
          'revoke a key at once',
          (c) => c.positional('key-id', { type: 'string', demandOption: true }),
          async (args) => {
            const keyId = String(args['key-id']);
            const result = await withServices((s) => revokeApiKey(s.db, keyId));
            if (Number(result.numUpdatedRows) === 0) throw new AppError('not_found', `No key with id '${keyId}'.`);
            io.out(`Revoked key ${keyId}.`);
          },
        )
        .demandCommand(1, 'Name a keys command: create, list or revoke.'),
    )
    .command(
      'grant-admin <username>',
      'give a user the administrator role',
      (c) => c.positional('username', { type: 'string', demandOption: true }),
      async (args) => {
        const username = checkUsername(args.username);
        const result = await withServices((s) => setUserAdmin(s.db, username, true));
        if (Number(result.numUpdatedRows) === 0)
          throw new AppError('not_found', `No user named '${username}' (create a key for them first).`);
        io.out(`${username} is now an administrator.`);
      },
    )
    .command(
      'revoke-admin <username>',
      'take the administrator role from a user',
      (c) => c.positional('username', { type: 'string', demandOption: true }),
      async (args) => {
        const username = checkUsername(args.username);
        const result = await withServices((s) => setUserAdmin(s.db, username, false));
        if (Number(result.numUpdatedRows) === 0) throw new AppError('not_found', `No user named '${username}'.`);
        io.out(`${username} is no longer an administrator.`);
      },
    )
    .command(
      'verify <research_id>',
      "re-check every claim's evidence span against its source's text, and that text against its hash",
      (c) =>
        c
          .positional('research_id', { type: 'string', demandOption: true })
          .option('json', { type: 'boolean', default: false }),
      async (args) => {
        exitCode = await verifyRun({ io, withServices }, args);
      },
    )
    .command('users', 'list users', (y) =>
      y
        .command(
          'list',
          'list users with their role',
          (c) => c.option('json', { type: 'boolean', default: false }),
          async (args) => {
            const users = await withServices((s) => listUsers(s.db));
            const items = users.map((u) => ({
              id: u.id,
              username: u.username,
              role: u.is_admin ? 'admin' : 'user',
              created_at: iso(u.created_at),
            }));
            if (args.json) io.out(JSON.stringify(items));
            else table(items, ['username', 'role', 'created_at', 'id']).forEach((l) => io.out(l));
          },
        )
        .demandCommand(1, 'Name a users command: list.'),
    )
    .demandCommand(1, 'Name a command.')
    .strict()
    .help()
    .version(false)
    .exitProcess(false)
    .fail((message, error) => {
      if (error && !(error instanceof UsageError)) throw error;
      exitCode = 2;
      io.err(message ?? error?.message ?? 'Usage error');
      io.err("Run 'research-admin --help' for usage.");
    });

  try {
    await parser.parseAsync();
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(error.message);
      exitCode = 2;
    } else {
      io.err(`Error: ${error instanceof Error ? error.message : String(error)}`);
      exitCode = 1;
    }
  } finally {
    await services?.close().catch(() => undefined);
  }
  return exitCode;
}
