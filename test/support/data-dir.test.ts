import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_DATA_DIR, findResearchData, planDataSuite } from './data-dir';

describe('third-party data directory (RESEARCH_DATA_DIR)', () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rs-data-'));
    fs.mkdirSync(path.join(dir, 'qa', 'set'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'qa', 'set', 'items.json'), '[]');
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('runs a suite on the directory RESEARCH_DATA_DIR names when it holds what the suite needs', () => {
    expect(planDataSuite(['qa/set/items.json'], { RESEARCH_DATA_DIR: dir })).toEqual({ kind: 'run', dir });
  });

  it('skips with a reason naming what is missing, or fails when RESEARCH_DATA_REQUIRED is set', () => {
    const needs = ['qa/set/items.json', 'nli/pairs.jsonl'];
    expect(planDataSuite(needs, { RESEARCH_DATA_DIR: dir })).toEqual({
      kind: 'skip',
      reason: `RESEARCH_DATA_DIR=${dir} lacks nli/pairs.jsonl`,
    });
    const gone = path.join(dir, 'nowhere');
    expect(planDataSuite(needs, { RESEARCH_DATA_DIR: gone, RESEARCH_DATA_REQUIRED: '1' })).toEqual({
      kind: 'fail',
      reason: `RESEARCH_DATA_DIR=${gone} does not exist`,
    });
  });

  it('defaults to ../shared/data beside the repository, only when it exists', () => {
    expect(DEFAULT_DATA_DIR).toBe(path.resolve(__dirname, '..', '..', '..', 'shared', 'data'));
    const lookup = findResearchData([], {});
    expect(lookup).toEqual(
      fs.existsSync(DEFAULT_DATA_DIR)
        ? { found: true, dir: DEFAULT_DATA_DIR }
        : { found: false, reason: expect.stringContaining('set RESEARCH_DATA_DIR') },
    );
  });
});
