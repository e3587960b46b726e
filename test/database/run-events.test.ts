import crypto from 'node:crypto';
import {
  appendRunEvents,
  finishRun,
  hideVisibleRun,
  insertRun,
  listRunEvents,
  listRunEventsAfter,
  transitionRun,
} from '@research/database';
import { createTestDatabase, type TestDatabase } from '../support/database';

describe('run events', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase('runevents');
  });
  afterAll(() => t.drop());

  const newRun = async () => {
    const id = crypto.randomUUID();
    await insertRun(t.db, { id, query: 'q', language: 'en', depth: 'quick', budget: '{}', state: 'created' });
    return id;
  };
  const seen = async (id: string) =>
    (await listRunEvents(t.db, id)).map((e) => ({ seq: e.seq, type: e.type, ...e.data }));

  it('numbers every state change of a run, with a failure’s error before its state and the end after it', async () => {
    const id = await newRun();
    await transitionRun(t.db, id, 'planning');
    await transitionRun(t.db, id, 'planning'); // no change, no event
    await appendRunEvents(t.db, id, [{ type: 'plan', data: { queries: ['a'] } }]);
    await finishRun(t.db, id, { state: 'failed', error: 'search provider down', failedStep: 'search' });
    await transitionRun(t.db, id, 'searching'); // refused: the run has ended
    expect(await seen(id)).toEqual([
      { seq: 1, type: 'state', state: 'created' },
      { seq: 2, type: 'state', state: 'planning' },
      { seq: 3, type: 'plan', queries: ['a'] },
      { seq: 4, type: 'error', error: 'search provider down', step: 'search' },
      { seq: 5, type: 'state', state: 'failed' },
      { seq: 6, type: 'end', state: 'failed' },
    ]);
  });

  it('ends the stream of a run that is deleted while it runs', async () => {
    const id = await newRun();
    await hideVisibleRun(t.db, id);
    expect((await seen(id)).map((e) => e.type)).toEqual(['state', 'state', 'end']);
  });

  it('numbers concurrent writers of one run in commit order, without gaps', async () => {
    const id = await newRun();
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        t.db.transaction().execute((trx) =>
          appendRunEvents(trx, id, [
            { type: 'query', data: { i } },
            { type: 'x', data: {} },
          ]),
        ),
      ),
    );
    expect((await listRunEvents(t.db, id)).map((e) => e.seq)).toEqual(Array.from({ length: 41 }, (_, i) => i + 1));
  });

  it('reads the news of several runs after their own cursors in one statement', async () => {
    const a = await newRun();
    const b = await newRun();
    await appendRunEvents(t.db, a, [{ type: 'plan', data: {} }]);
    await appendRunEvents(t.db, b, [
      { type: 'plan', data: {} },
      { type: 'query', data: {} },
    ]);
    const rows = await listRunEventsAfter(
      t.db,
      [
        { runId: a, after: 1 },
        { runId: b, after: 2 },
      ],
      100,
    );
    expect(rows.map((r) => [r.run_id, r.seq, r.type])).toEqual(
      [
        [a, 2, 'plan'],
        [b, 3, 'query'],
      ].sort((x, y) => String(x[0]).localeCompare(String(y[0]))),
    );
  });
});
