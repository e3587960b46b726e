import { DEPTH_BUDGETS } from '@research/core';
import { runBudgetOf } from '@research/pipeline';

describe("a run's budget", () => {
  it("reads the run's stored budget over its depth's defaults, and an unknown depth as normal", () => {
    const budget = runBudgetOf({ depth: 'quick', budget: { max_sources: 3, max_search_queries: 'many' }, usage: {} });
    expect(budget).toMatchObject({ ...DEPTH_BUDGETS.quick, max_sources: 3, rounds: 1 });
    expect(runBudgetOf({ depth: 'thorough', budget: null })).toMatchObject({ ...DEPTH_BUDGETS.normal, rounds: 2 });
  });

  it('says what is left and counts what a step takes, on the step’s own copy until it is kept', () => {
    const run = runBudgetOf({ depth: 'normal', budget: { max_search_queries: 10 }, usage: { search_queries: 4 } });
    const step = run.forStep();
    step.take('search_queries', 3);
    expect(step.remaining('search_queries')).toBe(3);
    expect(run.remaining('search_queries')).toBe(6);
    step.take('search_queries', 9);
    expect(step.remaining('search_queries')).toBe(0);
    expect(step.usage).toEqual({ search_queries: 16 });
  });

  it('keeps a share of the queries for later rounds and splits sources evenly over the rounds left', () => {
    const budget = runBudgetOf({ depth: 'deep', budget: { max_search_queries: 30, max_sources: 30 }, usage: {} });
    // Two later rounds keep min(5, 30 / 6) = 5 queries each: round 1 gets 20.
    expect(budget.queryAllowance(1, 3)).toBe(20);
    expect(budget.queryAllowance(2, 3, 20)).toBe(5);
    expect(budget.sourceAllowance(12, 2, 3)).toBe(9);
  });
});
