// eslint-disable-next-line @typescript-eslint/no-require-imports
const { tiers } = require('../../scripts/test-tiers.js') as {
  tiers(): Array<{ file: string; tier: 'unit' | 'integration'; why: string | null }>;
};

describe('the tiers of the tests', () => {
  const all = tiers();
  const of = (file: string) => all.find((t) => t.file === file);

  it('puts a test of pure functions in the unit tier', () => {
    expect(of('test/engine/standalone.test.ts')).toMatchObject({ tier: 'unit', why: null });
    expect(of('test/core/url.test.ts')).toMatchObject({ tier: 'unit' });
  });

  it('puts a test that drives a browser, a process or the database in the integration tier, saying why', () => {
    expect(of('test/web/run-page.test.ts')).toMatchObject({ tier: 'integration' });
    expect(of('test/database/database.test.ts')?.why).toMatch(/the test services|a database/);
    expect(of('test/architecture/layers.test.ts')?.why).toMatch(/another process/);
  });

  it('puts a stress test, megabytes of input with the event loop timed, in the integration tier', () => {
    expect(of('test/engine/hostile-text.test.ts')).toMatchObject({
      tier: 'integration',
      why: expect.stringMatching(/stress test/),
    });
  });

  it('follows the helpers a test imports: a test whose own text names no service is integration through them', () => {
    expect(of('test/core/network-failure.test.ts')?.why).toMatch(/^test\/support\/processes\.ts: another process$/);
  });

  it('lists every test file once, in one tier', () => {
    expect(new Set(all.map((t) => t.file)).size).toBe(all.length);
    expect(all.filter((t) => t.tier === 'unit').length).toBeGreaterThan(40);
  });
});
