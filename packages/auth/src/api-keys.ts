import crypto from 'node:crypto';
import type { Transaction } from 'kysely';
import { AppError } from '@research/core';
import {
  findApiKeyCredentials,
  insertApiKey,
  touchApiKey,
  upsertUser,
  type ApiKeyCredentialRow,
  type Database,
  type Db,
  type DB,
} from '@research/database';

// rsk_<key id: 16 hex>_<secret: 32 random bytes, base64url>. The id makes lookup a primary-key read;
// the secret carries 256 bits of entropy, so a salted SHA-256 (not a slow KDF) is the right hash.
const KEY_PREFIX = 'rsk';
const KEY_PATTERN = /^rsk_([0-9a-f]{16})_([A-Za-z0-9_-]{43})$/;

/** The authenticated caller of a request. */
export interface Principal {
  userId: string;
  username: string;
  isAdmin: boolean;
  keyId: string;
}

/** Whether a caller may change a run: an administrator, or the user who owns it (an ownerless run: no one else). */
export function mayManage(ownerUserId: string | null, actor: Principal): boolean {
  return actor.isAdmin || (ownerUserId !== null && ownerUserId === actor.userId);
}

function hashSecret(salt: string, secret: string): string {
  return crypto.createHmac('sha256', Buffer.from(salt, 'hex')).update(secret).digest('hex');
}

/** Generates a new key; the caller stores `salt` and `hash` and shows `key` once. */
export function generateApiKey(): { id: string; key: string; salt: string; hash: string } {
  const id = crypto.randomBytes(8).toString('hex');
  const secret = crypto.randomBytes(32).toString('base64url');
  const salt = crypto.randomBytes(16).toString('hex');
  return { id, key: `${KEY_PREFIX}_${id}_${secret}`, salt, hash: hashSecret(salt, secret) };
}

/** Splits a presented key into id and secret; undefined when it is not shaped like one of ours. */
export function parseApiKey(raw: string): { id: string; secret: string } | undefined {
  const match = KEY_PATTERN.exec(raw.trim());
  return match ? { id: match[1]!, secret: match[2]! } : undefined;
}

/** Creates the user if new and a key for them; returns the key in clear exactly once. */
export async function createApiKey(
  db: Db,
  params: { username: string; name?: string | null; expiresInDays?: number | null },
): Promise<{ id: string; username: string; key: string; expires_at: Date | null }> {
  const generated = generateApiKey();
  const expiresAt =
    params.expiresInDays && params.expiresInDays > 0 ? new Date(Date.now() + params.expiresInDays * 86_400_000) : null;
  const create = async (trx: Transaction<DB>) => {
    const user = await upsertUser(trx, params.username);
    await insertApiKey(trx, {
      id: generated.id,
      user_id: user.id,
      name: params.name ?? null,
      salt: generated.salt,
      key_hash: generated.hash,
      expires_at: expiresAt,
    });
    return { id: generated.id, username: user.username, key: generated.key, expires_at: expiresAt };
  };
  // Joins the caller's transaction when given one (Kysely has no nested transactions).
  return db.isTransaction ? create(db as Transaction<DB>) : db.transaction().execute(create);
}

// last_used_at is kept to the minute: each process writes it at most once a minute per key, so the
// hot path of an authenticated read stays one key lookup.
const TOUCH_INTERVAL_MS = 60_000;
const lastTouched = new Map<string, number>();

function recordKeyUse(db: Database, keyId: string): void {
  const now = Date.now();
  if (now - (lastTouched.get(keyId) ?? 0) < TOUCH_INTERVAL_MS) return;
  if (lastTouched.size > 10_000) lastTouched.clear();
  lastTouched.set(keyId, now);
  void touchApiKey(db, keyId).catch(() => undefined);
}

/** Step one of authentication: the presented key's id and secret, or 401 when it is missing or malformed. */
export function readPresentedKey(raw: string | undefined): { id: string; secret: string } {
  if (!raw) throw new AppError('unauthenticated', 'Missing API key (send it in the X-API-Key header).');
  const parsed = parseApiKey(raw);
  if (!parsed) throw new AppError('unauthenticated', 'Invalid API key.');
  return parsed;
}

/**
 * Step three (after the row lookup): checks the stored key `row` (undefined when the id is unknown)
 * against the presented secret, and its revocation and expiry as of `now`. Pure; throws 401.
 */
export function verifyApiKey(row: ApiKeyCredentialRow | undefined, secret: string, now = Date.now()): Principal {
  // Hash even when the id is unknown so timing does not reveal which key ids exist.
  const expected = Buffer.from(row?.key_hash ?? '0'.repeat(64), 'hex');
  const actual = Buffer.from(hashSecret(row?.salt ?? '00', secret), 'hex');
  const matches = expected.length === actual.length && crypto.timingSafeEqual(expected, actual);
  if (!row || !matches) throw new AppError('unauthenticated', 'Invalid API key.');
  if (row.revoked_at) throw new AppError('unauthenticated', 'API key has been revoked.');
  if (row.expires_at && row.expires_at.getTime() <= now) {
    throw new AppError('unauthenticated', 'API key has expired.');
  }
  return { userId: row.user_id, username: row.username, isAdmin: row.is_admin, keyId: row.id };
}

/**
 * Authenticates a presented key with the key row read by `lookup`, which may read more in the same
 * statement (e.g. the run a request asks for). The checks are those of authenticateApiKey; the row is
 * read on every call, so expiry and revocation take effect on the next request.
 */
export async function authenticateApiKeyWith<T extends { key: ApiKeyCredentialRow | undefined }>(
  db: Database,
  raw: string | undefined,
  lookup: (keyId: string) => Promise<T>,
): Promise<{ principal: Principal; found: T }> {
  const presented = readPresentedKey(raw);
  const found = await lookup(presented.id);
  const principal = verifyApiKey(found.key, presented.secret);
  recordKeyUse(db, principal.keyId);
  return { principal, found };
}

/**
 * Resolves a presented key to its caller, or throws 401. Expiry and revocation are read from the
 * database on every call, so they take effect on the next request.
 */
export async function authenticateApiKey(db: Database, raw: string | undefined): Promise<Principal> {
  const { principal } = await authenticateApiKeyWith(db, raw, async (keyId) => ({
    key: await findApiKeyCredentials(db, keyId),
  }));
  return principal;
}
