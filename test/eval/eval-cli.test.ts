import { parseArguments } from '../../scripts/eval/cli';
import { MULTIHOP_FIGURES } from '../../scripts/eval/multihop';

const parse = (...argv: string[]) => parseArguments(argv, {});

describe('npm run eval arguments', () => {
  it('keeps `hotpot` what it was: the 53 of hotpotqa-dev, whole', () => {
    expect(parse('hotpot')).toMatchObject({ suite: 'hotpot', set: 'hotpotqa-dev', part: 'all' });
    expect(parse('hotpot').limit).toBeUndefined();
  });

  it('evaluates the tune part of a named set unless --part says otherwise', () => {
    expect(parse('hotpot', '--set', 'hotpotqa-dev-large')).toMatchObject({ set: 'hotpotqa-dev-large', part: 'tune' });
    expect(parse('hotpot', '--set=musique-train', '--part=check', '--limit', '5')).toMatchObject({
      set: 'musique-train',
      part: 'check',
      limit: 5,
    });
    expect(parse('hotpot', '--part', 'tune')).toMatchObject({ set: 'hotpotqa-dev', part: 'tune' });
  });

  it('runs multihop on the check parts by default, contradiction on all its claims', () => {
    expect(parse('multihop')).toMatchObject({ suite: 'multihop', set: undefined, part: 'check' });
    expect(parse('multihop', '--part', 'tune', '--depth', 'normal', '--llm')).toMatchObject({
      part: 'tune',
      depth: 'normal',
      llm: '',
    });
    expect(parse('contradiction')).toMatchObject({ suite: 'contradiction', part: 'all' });
    expect(parse('contradiction', '--part', 'check')).toMatchObject({ part: 'check' });
  });

  it('refuses an unknown set or part naming the valid ones, and --set beside another evaluation', () => {
    expect(() => parse('hotpot', '--set', 'squad')).toThrow(
      'unknown question set squad: one of hotpotqa-dev, hotpotqa-dev-large, 2wikimultihopqa-train, musique-train',
    );
    expect(() => parse('hotpot', '--part', 'test')).toThrow('--part test: one of tune, check, all');
    expect(() => parse('multihop', '--set', 'musique-train')).toThrow('--set is for hotpot');
    expect(() => parse('contradiction', '--set', 'musique-train')).toThrow('--set is for hotpot');
    expect(() => parse('hotpot', '--limit', '0')).toThrow('--limit needs a positive whole number');
    expect(() => parse('--part', 'tune')).toThrow(
      'name the evaluation: hotpot, multihop, unanswerable, contradiction or local',
    );
  });

  it('runs local on its questions whole, with options as the others take them, and refuses --set and --part', () => {
    expect(parse('local')).toMatchObject({ suite: 'local', set: undefined, part: 'all', depth: 'quick' });
    expect(parse('local', '--limit', '3', '--depth', 'normal', '--llm=fake', '--save', 'out')).toMatchObject({
      limit: 3,
      depth: 'normal',
      llm: 'fake',
      save: 'out',
    });
    expect(() => parse('local', '--part', 'check')).toThrow('--part is not for local');
    expect(() => parse('local', '--set', 'musique-train')).toThrow('--set is for hotpot');
  });

  it('replays saved runs of hotpot, multihop and local only, without saving or a model', () => {
    expect(parse('multihop', '--part', 'tune', '--replay', 'runs')).toMatchObject({ replay: 'runs', part: 'tune' });
    expect(parse('hotpot', '--replay=runs')).toMatchObject({ suite: 'hotpot', replay: 'runs' });
    expect(parse('local', '--replay', 'runs')).toMatchObject({ suite: 'local', replay: 'runs' });
    expect(parse('unanswerable', '--replay', 'runs')).toMatchObject({ suite: 'unanswerable', replay: 'runs' });
    expect(() => parse('contradiction', '--replay', 'runs')).toThrow(
      '--replay is for hotpot, multihop, unanswerable and local',
    );
    expect(() => parse('hotpot', '--replay', 'runs', '--save', 'out')).toThrow('--replay reads saved runs');
    expect(() => parse('hotpot', '--replay', 'runs', '--llm=fake')).toThrow('without a model');
  });

  it('runs unanswerable on the tune part of the large HotpotQA set unless --set and --part say otherwise', () => {
    expect(parse('unanswerable')).toMatchObject({ suite: 'unanswerable', set: 'hotpotqa-dev-large', part: 'tune' });
    expect(parse('unanswerable', '--set', 'musique-train', '--part', 'check')).toMatchObject({
      set: 'musique-train',
      part: 'check',
    });
    expect(() => parse('unanswerable', '--set', 'squad')).toThrow('unknown question set squad');
    expect(() => parse('multihop', '--set', 'musique-train')).toThrow('--set is for hotpot and unanswerable');
  });

  it('declares every figure of multihop once per set, under the set name', () => {
    expect(MULTIHOP_FIGURES).toContain('hotpotqa_dev_large.both_pages');
    expect(MULTIHOP_FIGURES).toContain('2wikimultihopqa_train.answer_in_report');
    expect(MULTIHOP_FIGURES).toContain('musique_train.gold_pages_missed_in_results');
    expect(new Set(MULTIHOP_FIGURES).size).toBe(MULTIHOP_FIGURES.length);
  });
});
