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

/**
 * A caption of an image or a video: `<figcaption>`, or an element whose class names it one (WordPress's
 * `wp-caption-text`, `media-caption`, `image-caption` … predate `<figcaption>` and outlive it). A caption
 * describes a picture the text does not show; it is not a statement of the article.
 */
function isCaption(element: Element): boolean {
  if (element.tagName === 'FIGCAPTION') return true;
  const classes = element.getAttribute('class');
  if (!classes || !/caption/i.test(classes)) return false;
  // "has-caption", "no-caption", "withoutCaption" describe a container, not the caption itself.
  return classes.split(/\s+/).some((name) => /caption/i.test(name) && !/(has|no|without)[-_]?caption/i.test(name));
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

/**
 * The text of an article's node, a blank line between blocks so sentences of two paragraphs never run
 * together, without the parts that are about the page rather than its subject: captions and date lines.
 * One pass over the nodes, without recursion (a page may nest elements deeper than the stack allows).
 */
export function articleText(root: Node): string {
  const paragraphs: string[] = [];
  let pending: string[] = [];
  let tables = 0;
  const endParagraph = () => {
    for (const paragraph of tidyParagraphs(pending.join(''))) {
      if (tables > 0 || !isDateLine(paragraph)) paragraphs.push(paragraph);
    }
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
    if (isCaption(element)) continue;
    if (BLOCK_TAGS.has(element.tagName)) {
      endParagraph();
      if (element.tagName === 'TABLE') tables++;
      stack.push({ leave: element });
    }
    for (let child = item.lastChild; child; child = child.previousSibling) stack.push(child);
  }
  endParagraph();
  return paragraphs.join('\n\n');
}
