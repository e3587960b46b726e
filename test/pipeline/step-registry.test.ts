import fs from 'node:fs';
import path from 'node:path';
import { REVIEW_STATE, RUN_STATES, STEP_STATES } from '@research/core';
import { PIPELINE_STEPS, RESEARCH_STEPS, STEP_STATE, nextStep, registerSteps, stepsOfRound } from '@research/pipeline';

/**
 * The web page's copy of the step states (apps/web/src/run/progress.ts). The page is a browser module that imports
 * no package, and the root project cannot import it: its source is read instead.
 */
function webStepStates(): string[] {
  const source = fs.readFileSync(path.join(__dirname, '../../apps/web/src/run/progress.ts'), 'utf8');
  const list = /export const STEP_STATES: readonly RunState\[\] = \[([^\]]*)\]/.exec(source);
  if (!list) throw new Error('apps/web/src/run/progress.ts no longer declares STEP_STATES as a list');
  return [...list[1]!.matchAll(/'([a-z]+)'/g)].map((m) => m[1]!);
}

const [plan, search, fetch, analyze, compare, synthesize] = RESEARCH_STEPS;

describe('the step registry', () => {
  it('derives the step names and their states from the one list of step modules', () => {
    expect(PIPELINE_STEPS).toEqual(['plan', 'search', 'fetch', 'analyze', 'compare', 'synthesize']);
    expect(STEP_STATE).toEqual({
      plan: 'planning',
      search: 'searching',
      fetch: 'fetching',
      analyze: 'analyzing',
      compare: 'comparing',
      synthesize: 'synthesizing',
    });
    expect(RESEARCH_STEPS.map((m) => m.state)).toEqual(STEP_STATES);
  });

  it('takes planning in the first round only, and every other step in every round', () => {
    expect(stepsOfRound(1)).toEqual(PIPELINE_STEPS);
    expect(stepsOfRound(2)).toEqual(['search', 'fetch', 'analyze', 'compare', 'synthesize']);
    expect(nextStep({ round: 1, done: [...PIPELINE_STEPS], rounds: 2 })).toEqual({ round: 2, step: 'search' });
    expect(nextStep({ round: 2, done: stepsOfRound(2), rounds: 2 })).toBeNull();
  });

  it("keeps the web page's copy of the step states equal to core's", () => {
    expect(webStepStates()).toEqual(STEP_STATES);
  });

  it('knows the plan review state as a run state no step works in (the web page lists it too)', () => {
    expect(RUN_STATES).toContain(REVIEW_STATE);
    expect(STEP_STATES).not.toContain(REVIEW_STATE);
    expect(() =>
      registerSteps([plan, { ...search, state: REVIEW_STATE }, fetch, analyze, compare, synthesize]),
    ).toThrow(`step "search" runs in "${REVIEW_STATE}", not a step state`);
    const types = fs.readFileSync(path.join(__dirname, '../../apps/web/src/api/types.ts'), 'utf8');
    const webStates = /export type RunState =([^;]*);/.exec(types)![1]!;
    expect([...webStates.matchAll(/'([a-z_]+)'/g)].map((m) => m[1])).toEqual([...RUN_STATES]);
  });

  it('accepts the registered modules', () => {
    expect(registerSteps([...RESEARCH_STEPS])).toEqual(RESEARCH_STEPS);
  });

  it('refuses a step state that no module handles', () => {
    expect(() => registerSteps([plan, search, fetch, analyze, synthesize])).toThrow(
      'no step runs in state "comparing"',
    );
  });

  it('refuses a module without its handler', () => {
    const handless = { ...compare, compute: undefined } as unknown as typeof compare;
    expect(() => registerSteps([plan, search, fetch, analyze, handless, synthesize])).toThrow(
      'step "compare" has no handler',
    );
  });

  it('refuses two modules of one name', () => {
    const twin = { ...compare, name: 'analyze' } as const;
    expect(() => registerSteps([plan, search, fetch, analyze, twin, synthesize])).toThrow(
      '2 steps are named "analyze"',
    );
  });

  it('refuses two modules in one state, and modules out of the states’ order', () => {
    const again = { ...synthesize, name: 'review', state: 'comparing' } as const;
    expect(() => registerSteps([plan, search, fetch, analyze, compare, again, synthesize])).toThrow(
      'steps "compare" and "review" both run in state "comparing"',
    );
    expect(() => registerSteps([plan, search, analyze, fetch, compare, synthesize])).toThrow(
      'not in the order of core',
    );
  });

  it('refuses a module reading a part no run holds', () => {
    const odd = { ...fetch, reads: ['searchResults', 'pages'] } as unknown as typeof fetch;
    expect(() => registerSteps([plan, search, odd, analyze, compare, synthesize])).toThrow(
      'step "fetch" reads pages, which no run holds',
    );
  });
});
