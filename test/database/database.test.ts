import { countVisibleRuns, insertRun, findVisibleRun, upsertUser } from '@research/database';
import { createTestDatabase, type TestDatabase } from '../support/database';

describe('database', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase('db');
  });
  afterAll(() => t.drop());

  it('stores a run and reads it back with its protection flag', async () => {
    const user = await upsertUser(t.db, 'alice');
    const run = await insertRun(t.db, {
      id: '6f1c2d4e-0000-4000-8000-000000000001',
      query: 'q',
      language: 'de',
      depth: 'quick',
      budget: JSON.stringify({ max_sources: 1 }),
      state: 'created',
      owner_user_id: user.id,
    });
    expect(run.created_at).toBeInstanceOf(Date);
    const read = await findVisibleRun(t.db, run.id);
    expect(read?.is_deletion_protected).toBe(false);
    expect(read?.has_retention).toBe(false);
    expect(read?.budget).toEqual({ max_sources: 1 });
    expect(await countVisibleRuns(t.db)).toBe(1);
  });
});
