import type { Db, UserRow } from '../schema';

export function findUserByUsername(db: Db, username: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirst();
}

export function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Inserts the user if the name is new; returns the stored row either way. */
export async function upsertUser(db: Db, username: string): Promise<UserRow> {
  await db
    .insertInto('users')
    .values({ username })
    .onConflict((oc) => oc.column('username').doNothing())
    .execute();
  return db.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirstOrThrow();
}

export function setUserAdmin(db: Db, username: string, isAdmin: boolean) {
  return db.updateTable('users').set({ is_admin: isAdmin }).where('username', '=', username).executeTakeFirst();
}

export function listUsers(db: Db): Promise<UserRow[]> {
  return db.selectFrom('users').selectAll().orderBy('created_at').orderBy('username').execute();
}

export async function countUsers(db: Db): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
