import crypto from 'node:crypto';
import {
  findApiKeyAndVisibleRun,
  insertApiKey,
  insertRetentionRecord,
  insertRun,
  revokeApiKey,
  upsertUser,
} from '@research/database';
import { createTestDatabase, type TestDatabase } from '../support/database';

describe('findApiKeyAndVisibleRun', () => {
  let t: TestDatabase;
  const keyIds = ['0000000000000001', '0000000000000002', '0000000000000003'];
  const runIds: string[] = [];
  let hiddenRunId: string;
  beforeAll(async () => {
    t = await createTestDatabase('keyrun');
    for (const [n, id] of keyIds.entries()) {
      const user = await upsertUser(t.db, `user-${n}`);
      await insertApiKey(t.db, {
        id,
        user_id: user.id,
        name: null,
        salt: `0${n}`,
        key_hash: `hash-${n}`,
        expires_at: null,
      });
    }
    await revokeApiKey(t.db, keyIds[2]!);
    for (let n = 0; n < 6; n++) {
      const id = crypto.randomUUID();
      await insertRun(t.db, { id, query: `run ${n}`, language: 'de', depth: 'quick', budget: '{}', state: 'created' });
      if (n % 2 === 0) await insertRetentionRecord(t.db, { research_id: id, owner_user_id: null, query: `run ${n}` });
      runIds.push(id);
    }
    await t.db
      .updateTable('retention_records')
      .set({ password_hash: 'protected' })
      .where('research_id', '=', runIds[0]!)
      .execute();
    hiddenRunId = crypto.randomUUID();
    await insertRun(t.db, {
      id: hiddenRunId,
      query: 'hidden',
      language: 'de',
      depth: 'quick',
      budget: '{}',
      state: 'cancelled',
      is_hidden: true,
    });
  });
  afterAll(() => t.drop());

  it('answers every lookup made at once with its own key and run, as a lookup made alone would', async () => {
    const keys = [...keyIds, 'ffffffffffffffff'];
    const runs: Array<string | null> = [...runIds, hiddenRunId, '00000000-0000-4000-8000-000000000000', null];
    const pairs = keys.flatMap((keyId) => runs.map((runId) => ({ keyId, runId })));
    // Made in one turn of the event loop, so they share statements.
    const together = await Promise.all(pairs.map(({ keyId, runId }) => findApiKeyAndVisibleRun(t.db, keyId, runId)));
    // One at a time, inside a transaction (the statement runs there for a single lookup).
    const alone = await t.db.transaction().execute(async (trx) => {
      const answers = [];
      for (const { keyId, runId } of pairs) answers.push(await findApiKeyAndVisibleRun(trx, keyId, runId));
      return answers;
    });
    expect(together).toEqual(alone);
    // More lookups at once than one statement takes (they are split over several).
    const repeated = Array.from({ length: 9 }, () => pairs).flat();
    const many = await Promise.all(repeated.map(({ keyId, runId }) => findApiKeyAndVisibleRun(t.db, keyId, runId)));
    expect(many).toEqual(Array.from({ length: 9 }, () => alone).flat());

    pairs.forEach(({ keyId, runId }, n) => {
      const { key, run } = together[n]!;
      if (keyId === 'ffffffffffffffff') {
        expect(key).toBeUndefined();
        expect(run).toBeUndefined();
        return;
      }
      expect(key).toMatchObject({
        id: keyId,
        username: `user-${keyIds.indexOf(keyId)}`,
        key_hash: `hash-${keyIds.indexOf(keyId)}`,
      });
      expect(key!.revoked_at === null).toBe(keyId !== keyIds[2]);
      if (runId !== null && runIds.includes(runId)) {
        expect(run).toMatchObject({ id: runId, query: `run ${runIds.indexOf(runId)}` });
        expect(run!.created_at).toBeInstanceOf(Date);
        expect(run!.is_deletion_protected).toBe(runId === runIds[0]);
      } else {
        expect(run).toBeUndefined();
      }
    });
  });
});
