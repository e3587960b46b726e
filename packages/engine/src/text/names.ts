import { endsWithAbbreviation } from './abbreviations';
import { languageCode, STOPWORDS } from './language';
import { words } from './tokens';

/**
 * Names in a text (a query or a sentence): runs of capitalised words (a sentence's first word only when a
 * capitalised word follows it and it is not a stopword) with nothing but spaces between them, and quoted
 * phrases, each once, in order, as written ("C.J. Hunter", "Bank of America"). The
 * text's language tells which abbreviations end no sentence (English rules when not given).
 */
export function namedEntities(query: string, language = 'en'): string[] {
  const out: string[] = [];
  for (const m of query.matchAll(/["“„«]([^"“”„«»]{3,80})["”“»]/gu)) out.push(m[1]!.trim());
  const tokens = [...query.matchAll(/[\p{L}\p{N}][\p{L}\p{N}'’.-]*/gu)];
  let run: RegExpMatchArray[] = [];
  const flush = () => {
    if (run.length) {
      const last = run[run.length - 1]!;
      out.push(query.slice(run[0]!.index, last.index! + last[0].length).replace(/[.]$/u, ''));
    }
    run = [];
  };
  const capitalised = (i: number) => tokens[i] !== undefined && /^\p{Lu}/u.test(tokens[i]![0]);
  // Capitalised words are one name only where nothing but spaces (or the quotes of a nickname: Benjamin "Bugsy"
  // Siegel) stands between them: "Siegel (February 28" and "Kansas City, Missouri" are two.
  const adjoins = (i: number) => {
    const [word, next] = [tokens[i]!, tokens[i + 1]];
    return next !== undefined && /^[\s"“”]*$/u.test(query.slice(word.index! + word[0].length, next.index));
  };
  tokens.forEach((m, i) => {
    const word = m[0].replace(/[.]$/, '');
    const capital = /^\p{Lu}/u.test(word);
    // An initial ("Roger O. Egeberg", "C.J. Hunter") or a title before a name ("Ken St. Andre", "Dr. Watson")
    // ends no sentence: the splitter's abbreviations.
    const before = query.slice(0, m.index);
    const sentenceStart = i === 0 || (/[.?!]\s*$/.test(before) && !endsWithAbbreviation(query, language, m.index));
    if (run.length > 0 && !adjoins(i - 1)) flush();
    const joinsRun = run.length > 0 && /^(of|de|von|van|der|del|la|le|di|da|the)$/i.test(word);
    // A sentence's first word begins a name only when the name goes on ("However, Churchill" names Churchill).
    const startsName =
      capital && sentenceStart && !STOPWORDS.has(word.toLowerCase()) && capitalised(i + 1) && adjoins(i);
    if ((capital && !sentenceStart) || startsName) run.push(m);
    else if (joinsRun && capitalised(i + 1)) run.push(m);
    else flush();
  });
  flush();
  const seen = new Set<string>();
  return out.filter((e) => {
    const key = e.toLowerCase();
    if (seen.has(key) || e.length < 3) return false;
    seen.add(key);
    return true;
  });
}

/**
 * The names a question holds, to be searched on their own: namedEntities, with the qualifier in parentheses
 * that follows one ("Lola (1981 Film)") and without a possessive "'s"; in German, which capitalises every
 * noun, only names of several words or quoted ones.
 */
export function questionNames(query: string, language: string): string[] {
  const out: string[] = [];
  for (const name of namedEntities(query, language)) {
    // "Lola (1981 Film)" is searched whole: what the parentheses add tells the name's page from its namesakes.
    const at = query.indexOf(name);
    const qualifier = at >= 0 ? /^\s*\([^()]{1,40}\)/u.exec(query.slice(at + name.length)) : null;
    const full = qualifier ? `${name}${qualifier[0]}` : name.replace(/['’]s$/u, '');
    if (!out.some((o) => o.includes(name) && o !== name)) out.push(full);
  }
  const kept = out.filter((name, i) => !out.some((other, j) => j !== i && other.includes(`(${name})`)));
  return languageCode(language) === 'de' ? kept.filter((e) => /\s|["“„]/.test(e)) : kept;
}

/** A name as names are compared: its words, lower case, one space apart ("C.J. Hunter" → "c j hunter"). */
export function nameKey(text: string): string {
  return words(text).join(' ');
}

/**
 * The subject a page title names, as a nameKey: without what a title adds in parentheses to tell namesakes
 * apart ("Kiss and Tell (1945 film)" → "kiss and tell"), and without a leading article, so a
 * name written in a sentence meets the title of its page.
 */
export function subjectKey(title: string): string {
  const bare = title.replace(/\s*\([^)]*\)\s*/gu, ' ').trim();
  return nameKey(bare).replace(/^(the|a|an|der|die|das|le|la|les|el|los|il) /u, '');
}
