/** Elements that start and end a paragraph of the text. */
const BLOCK_TAGS = new Set([
  'ADDRESS',
  'ARTICLE',
  'ASIDE',
  'BLOCKQUOTE',
  'BR',
  'DD',
  'DIV',
  'DL',
  'DT',
  'FIGCAPTION',
  'FIGURE',
  'FOOTER',
  'H1',
  'H2',
  'H3',
  'H4',
  'H5',
  'H6',
  'HEADER',
  'HR',
  'LI',
  'MAIN',
  'OL',
  'P',
  'PRE',
  'SECTION',
  'TABLE',
  'TD',
  'TH',
  'TR',
  'UL',
]);

/** Collapses runs of spaces inside lines and of blank lines between paragraphs. */
export function tidyText(text: string): string {
  return tidyParagraphs(text).join('\n\n');
}

function tidyParagraphs(text: string): string[] {
  return text
    .replace(/\u0000/g, '')
    .split(/\n\s*\n/)
    .map((para) => para.replace(/\s+/g, ' ').trim())
    .filter((para) => para !== '');
}

const MONTHS =
  'jan feb mar apr may jun jul aug sep sept oct nov dec january february march april june july august september ' +
  'october november december';

/** The words of a date line besides numbers: months, weekdays, times of day, time zones, and its labels. */
const DATE_LINE_WORDS = new Set(
  (
    `${MONTHS} mon tue tues wed thu thur thurs fri sat sun monday tuesday wednesday thursday friday saturday sunday ` +
    'am pm a m p utc gmt et est edt ct cst cdt mt mst mdt pt pst pdt bst cet cest ist jst aest ' +
    'published updated posted original modified last on at'
  ).split(' '),
);
const MONTH_WORDS = new Set(MONTHS.split(' '));

/**
 * A paragraph that only says when the page was published or updated ("PUBLISHED: 10:48, Tue, Nov 19,
 * 2019", "Updated Nov. 19, 2019 8:21 am ET"): numbers with a month or a time of day, and no word that is
 * not part of a date. A date in a sentence, or in a table's cell (data, not a stamp), stays.
 */
function isDateLine(paragraph: string): boolean {
  if (paragraph.length > 120) return false;
  let number = false;
  let month = false;
  for (const word of paragraph.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    if (/^\d{1,4}(st|nd|rd|th)?$/.test(word)) number = true;
    else if (!DATE_LINE_WORDS.has(word)) return false;
    else if (MONTH_WORDS.has(word)) month = true;
  }
  return number && (month || /\d:\d\d/.test(paragraph));
}

/** A paragraph of a node's text, and whether it is (in) a table's cell. */
interface Paragraph {
  text: string;
  inTable: boolean;
}

/**
 * The paragraphs of a node's text: a new one at each block, so sentences of two paragraphs never run
 * together. A `<figcaption>` in it is left out: a caption describes a picture the text does not show, it
 * is not a statement of the article. One pass over the nodes, without recursion (a page may nest elements
 * deeper than the stack allows).
 */
export function paragraphsOf(root: Node): Paragraph[] {
  const paragraphs: Paragraph[] = [];
  let pending: string[] = [];
  let tables = 0;
  const endParagraph = () => {
    for (const text of tidyParagraphs(pending.join(''))) paragraphs.push({ text, inTable: tables > 0 });
    pending = [];
  };
  // A block is entered, then left once its children are done: a `leave` entry marks where.
  const stack: Array<Node | { leave: Element }> = [root];
  for (let item = stack.pop(); item; item = stack.pop()) {
    if ('leave' in item) {
      endParagraph();
      if (item.leave.tagName === 'TABLE') tables--;
      continue;
    }
    if (item.nodeType === 3) {
      pending.push(item.nodeValue ?? '');
      continue;
    }
    if (item.nodeType !== 1) continue;
    const element = item as Element;
    if (element.tagName === 'FIGCAPTION') continue;
    if (BLOCK_TAGS.has(element.tagName)) {
      endParagraph();
      if (element.tagName === 'TABLE') tables++;
      stack.push({ leave: element });
    }
    for (let child = item.lastChild; child; child = child.previousSibling) stack.push(child);
  }
  endParagraph();
  return paragraphs;
}

/**
 * The text of an article's node, paragraphs separated by blank lines, without the parts that are about the
 * page rather than its subject: captions, date lines, and the paragraphs of `leaveOut` (the captions known
 * by their class, read before Readability rewrote the elements that carried it).
 */
export function articleText(root: Node, leaveOut: ReadonlySet<string> = new Set()): string {
  return paragraphsOf(root)
    .filter(({ text, inTable }) => !leaveOut.has(text) && (inTable || !isDateLine(text)))
    .map(({ text }) => text)
    .join('\n\n');
}
