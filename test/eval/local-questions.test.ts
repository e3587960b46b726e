import fs from 'node:fs';
import path from 'node:path';
import { createExtractionPool, type ExtractionPool } from '@research/crawler';
import { htmlToText } from '@research/search';
import {
  LOCAL_NEEDS,
  READABILITY_PAGES,
  localItems,
  pageOfLocalUrl,
  pageSourceFile,
  readLocalQuestions,
  readabilityPageNames,
} from '../../scripts/eval/local-corpus';
import { normaliseText, statesAnswer } from '../../scripts/eval/protocol';
import { describeWithData } from '../support/data-dir';

const questions = readLocalQuestions();

describe('questions of the local evaluation', () => {
  it('asks about 40 questions of as many pages and about 30 that no page answers, each once', () => {
    expect(questions.answered.length).toBeGreaterThanOrEqual(35);
    expect(questions.answered.length).toBeLessThanOrEqual(50);
    expect(new Set(questions.answered.map((q) => q.page)).size).toBe(questions.answered.length);
    expect(questions.unanswered.length).toBeGreaterThanOrEqual(25);
    expect(questions.unanswered.length).toBeLessThanOrEqual(35);
    const asked = [...questions.answered, ...questions.unanswered].map((q) => normaliseText(q.question));
    expect(new Set(asked).size).toBe(asked.length);
    expect(questions.about.join(' ')).toMatch(/written/);
  });

  it('gives every question an answer that the question itself does not give away', () => {
    for (const q of [...questions.answered, ...questions.unanswered]) {
      expect(q.question.trim()).toMatch(/\?$/);
      expect(q.answer.trim()).not.toBe('');
      expect({ question: q.question, givesAway: statesAnswer(q.question, q.answer) }).toEqual({
        question: q.question,
        givesAway: false,
      });
    }
    for (const q of questions.unanswered) expect(q.absent.length).toBeGreaterThan(0);
  });

  it('takes the first N of each kind with a limit, numbered within its kind', () => {
    const items = localItems(questions, 2);
    expect(items.map((item) => [item.kind, item.n])).toEqual([
      ['answered', 0],
      ['answered', 1],
      ['unanswered', 0],
      ['unanswered', 1],
    ]);
    expect(localItems(questions)).toHaveLength(questions.answered.length + questions.unanswered.length);
  });

  it('knows a corpus page by its local: URL', () => {
    expect(pageOfLocalUrl('local:ars-1.html')).toBe('ars-1');
    expect(pageOfLocalUrl('local:notes.txt')).toBeUndefined();
    expect(pageOfLocalUrl('http://127.0.0.1/ars-1.html')).toBeUndefined();
  });
});

describeWithData('questions of the local evaluation against the pages (third-party data)', LOCAL_NEEDS, (dir) => {
  const names = readabilityPageNames(dir);
  let pool: ExtractionPool;

  beforeAll(() => {
    // A thread of the compiled extraction worker (jsdom does not load in jest's module registry).
    pool = createExtractionPool({ threads: 1 });
  });
  afterAll(() => pool?.close());

  it('reads the 130 pages of the test set, and every answered question names one of them', () => {
    expect(names).toHaveLength(130);
    expect(questions.answered.map((q) => q.page).filter((page) => !names.includes(page))).toEqual([]);
  });

  it.each(questions.answered.map((q) => [q.page, q] as const))(
    '%s: the article the crawler extracts writes the answer exactly as given, and the question does not repeat its headline',
    async (page, q) => {
      // Read as the fetch step reads a local HTML file: the crawler's extraction, with the file's local: URL.
      const article = await pool.extract({
        body: fs.readFileSync(pageSourceFile(dir, page)),
        contentType: 'text/html',
        kind: 'html',
        url: `local:${page}.html`,
      });
      expect(article.content.replace(/\s+/gu, ' ')).toContain(q.answer);
      const metadata = JSON.parse(
        fs.readFileSync(path.join(dir, READABILITY_PAGES, page, 'expected-metadata.json'), 'utf8'),
      ) as { title?: string };
      // A headline, not a subject's name ("New Zealand"), which a question about it cannot help naming.
      const title = normaliseText(metadata.title ?? '');
      if (title.split(' ').length >= 4) expect(normaliseText(q.question)).not.toContain(title);
    },
  );

  it("finds the key words of no unanswered question's answer in any page, title or text", () => {
    const pages = names.map((name) => {
      const { title, text } = htmlToText(fs.readFileSync(pageSourceFile(dir, name), 'utf8'));
      return { name, words: ` ${normaliseText(`${title ?? ''} ${text}`)} ` };
    });
    const found = questions.unanswered.flatMap((q) =>
      [...q.absent, q.answer].flatMap((key) =>
        pages.filter((page) => page.words.includes(` ${normaliseText(key)} `)).map((page) => `${key}: ${page.name}`),
      ),
    );
    expect(found).toEqual([]);
  });
});
