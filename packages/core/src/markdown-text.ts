// Markdown read as text: the local corpus's files (packages/search) and a collection's uploads (the crawler's
// extraction pool, where a pathological file costs a pool thread its time limit, not the event loop).

/** Markdown as readable text: front matter, link targets, image URLs and markup removed. */
export function markdownToText(markdown: string): { title: string | null; text: string } {
  let body = markdown.replace(/^\uFEFF/, '');
  let title: string | null = null;
  const frontMatter = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(body);
  if (frontMatter) {
    const match = /^title:\s*["']?(.+?)["']?\s*$/m.exec(frontMatter[1]!);
    if (match) title = match[1]!.trim();
    body = body.slice(frontMatter[0].length);
  }
  if (!title) {
    const heading = /^#\s+(.+?)\s*#*\s*$/m.exec(body);
    if (heading) title = heading[1]!.trim();
  }
  const text = body
    .replace(/^```.*$/gm, '')
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/^\s*\[[^\]]+\]:\s+\S+.*$/gm, '')
    .replace(/<[^>\n]+>/g, '')
    .replace(/^\s{0,3}#{1,6}\s+/gm, '')
    .replace(/^\s{0,3}>\s?/gm, '')
    .replace(/(\*\*|__|~~|`)/g, '')
    .replace(/(^|\s)[*_](\S[^*_\n]*?)[*_](?=\s|[.,;:!?]|$)/g, '$1$2')
    .replace(/[ \t]+/g, ' ')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return { title, text };
}
