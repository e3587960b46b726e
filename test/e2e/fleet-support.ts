import { createApiKey as create } from '@research/auth';
import { setUserAdmin, type Database } from '@research/database';

export async function createApiKey(db: Database, username: string): Promise<string> {
  return (await create(db, { username })).key;
}

export async function setUserAdminByName(db: Database, username: string): Promise<void> {
  await setUserAdmin(db, username, true);
}
