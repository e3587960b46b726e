import { paragraphsOf } from './article-text';

/** Sectioning elements: a header or footer inside one belongs to that section, not to the page (HTML-AAM). */
const SECTIONING = new Set(['ARTICLE', 'ASIDE', 'MAIN', 'NAV', 'SECTION']);

/** ARIA roles of the parts of a page around its content. */
const CHROME_ROLES = new Set(['banner', 'contentinfo', 'navigation', 'complementary', 'search']);

/** Roles that make an element hold the content, as `<main>` and `<article>` do. */
const CONTENT_ROLES = new Set(['main', 'article']);

/**
 * Whether an element is one of the page's own landmarks around its content: its navigation, its banner
 * (a `<header>` outside any section), its footer (a `<footer>` outside any section, the "contentinfo"),
 * its side content (an `<aside>` outside any section), or an element with one of those roles.
 */
function isPageChrome(element: Element, inSection: boolean): boolean {
  const role = element.getAttribute('role')?.trim().toLowerCase();
  if (role && CHROME_ROLES.has(role)) return true;
  switch (element.tagName) {
    case 'NAV':
      return true;
    case 'HEADER':
    case 'FOOTER':
    case 'ASIDE':
      return !inSection;
    default:
      return false;
  }
}

function holdsContent(element: Element): boolean {
  return element.querySelector('main, article, [role="main"], [role="article"]') !== null;
}

function visibleLength(node: Node): number {
  return (node.textContent ?? '').replace(/\s+/g, '').length;
}

/**
 * Removes the page's navigation, banner, footer and side content, as their elements and ARIA roles mark
 * them. Readability recognises these by class names only: a site footer of a few sentences outscored an
 * article of one short paragraph, and a page whose paragraphs were too short to score came out as the
 * whole body, menus included. A landmark that holds a `<main>` or an `<article>` stays (a page that wraps
 * its content in one), and so do all of them when no text is left outside them.
 *
 * One walk over the tree that never enters a landmark, so each element is visited once and each
 * landmark's subtree is read once: linear in the size of the page.
 */
export function dropPageLandmarks(document: Document): void {
  const body = document.body;
  if (!body) return;
  const landmarks: Element[] = [];
  const stack: Array<{ element: Element; inSection: boolean }> = [{ element: body, inSection: false }];
  for (let next = stack.pop(); next; next = stack.pop()) {
    for (let child = next.element.firstElementChild; child; child = child.nextElementSibling) {
      if (isPageChrome(child, next.inSection)) {
        if (!holdsContent(child)) landmarks.push(child);
        continue;
      }
      const role = child.getAttribute('role')?.trim().toLowerCase();
      const section =
        next.inSection || SECTIONING.has(child.tagName) || (role !== undefined && CONTENT_ROLES.has(role));
      stack.push({ element: child, inSection: section });
    }
  }
  if (landmarks.length === 0) return;
  const inLandmarks = landmarks.reduce((sum, landmark) => sum + visibleLength(landmark), 0);
  if (visibleLength(body) === inLandmarks) return;
  for (const landmark of landmarks) landmark.remove();
}

/** An element whose class names a caption but holds more text than this is no caption (some pages name their body so). */
const MAX_CAPTION_CHARS = 1000;

/**
 * An element whose class names it a caption: WordPress's `wp-caption-text`, `media-caption`,
 * `imageCaption` … (captions predate `<figcaption>` and outlive it). "has-caption", "no-caption" and
 * "withoutCaption" describe a container instead.
 */
function isNamedCaption(element: Element): boolean {
  const classes = element.getAttribute('class');
  if (!classes || !/caption/i.test(classes)) return false;
  return classes.split(/\s+/).some((name) => /caption/i.test(name) && !/(has|no|without)[-_]?caption/i.test(name));
}

/**
 * The paragraphs of the page's captions known by their class (a `<figcaption>` is known by its tag, which
 * stays). A caption describes a picture the text does not show; it is not a statement of the article. They
 * are read before Readability rewrites the page, which drops the class (a `<div>` of text becomes a new
 * `<p>`), and are left out of its text afterwards by their paragraphs' text; removing them first would
 * change what Readability keeps (a picture without its caption looks like no content). The walk does not
 * enter an element named a caption, so each element is visited once and each caption read once.
 */
export function captionParagraphs(document: Document): Set<string> {
  const paragraphs = new Set<string>();
  const stack: Element[] = document.body ? [document.body] : [];
  for (let element = stack.pop(); element; element = stack.pop()) {
    for (let child = element.firstElementChild; child; child = child.nextElementSibling) {
      if (!isNamedCaption(child)) stack.push(child);
      else if (visibleLength(child) <= MAX_CAPTION_CHARS)
        for (const { text } of paragraphsOf(child)) paragraphs.add(text);
    }
  }
  return paragraphs;
}
