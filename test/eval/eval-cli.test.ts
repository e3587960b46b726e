import { parseArguments } from '../../scripts/eval/cli';

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

  it('runs contradiction on all its claims unless --part says otherwise', () => {
    expect(parse('contradiction')).toMatchObject({ suite: 'contradiction', set: undefined, part: 'all' });
    expect(parse('contradiction', '--part', 'check')).toMatchObject({ part: 'check' });
  });

  it('refuses an unknown set or part naming the valid ones, and --set beside another evaluation', () => {
    expect(() => parse('hotpot', '--set', 'squad')).toThrow(
      'unknown question set squad: one of hotpotqa-dev, hotpotqa-dev-large, 2wikimultihopqa-train, musique-train',
    );
    expect(() => parse('hotpot', '--part', 'test')).toThrow('--part test: one of tune, check, all');
    expect(() => parse('contradiction', '--set', 'musique-train')).toThrow('--set is for hotpot');
    expect(() => parse('hotpot', '--limit', '0')).toThrow('--limit needs a positive whole number');
    expect(() => parse('--part', 'tune')).toThrow('name the evaluation: hotpot or contradiction');
  });
});
