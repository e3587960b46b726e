import { endsWithAbbreviation } from './abbreviations';
import { languageCode, STOPWORDS } from './language';

/**
 * Names in a text (a query or a sentence): runs of capitalised words (a sentence's first word only when a
 * capitalised word follows it and it is not a stopword) and quoted phrases, each once, in order. The
 * text's language tells which abbreviations end no sentence (English rules when not given).
 */
export function namedEntities(query: string, language = 'en'): string[] {
  const out: string[] = [];
  for (const m of query.matchAll(/["“„«]([^"“”„«»]{3,80})["”“»]/gu)) out.push(m[1]!.trim());
  const tokens = [...query.matchAll(/[\p{L}\p{N}][\p{L}\p{N}'’.-]*/gu)];
  let run: string[] = [];
  const flush = () => {
    if (run.length) out.push(run.join(' '));
    run = [];
  };
  tokens.forEach((m, i) => {
    const word = m[0].replace(/[.]$/, '');
    const capital = /^\p{Lu}/u.test(word);
    // An initial ("Roger O. Egeberg", "George H. W. Bush") or a title before a name ("Ken St. Andre", "Dr. Watson")
    // ends no sentence: the splitter's abbreviations.
    const before = query.slice(0, m.index);
    const sentenceStart = i === 0 || (/[.?!]\s*$/.test(before) && !endsWithAbbreviation(query, language, m.index));
    const joinsRun = run.length > 0 && /^(of|de|von|van|der|del|la|le|di|da|the)$/i.test(word);
    const startsName =
      capital &&
      sentenceStart &&
      !STOPWORDS.has(word.toLowerCase()) &&
      tokens[i + 1] &&
      /^\p{Lu}/u.test(tokens[i + 1]![0]);
    if ((capital && !sentenceStart) || startsName) run.push(word);
    else if (joinsRun && tokens[i + 1] && /^\p{Lu}/u.test(tokens[i + 1]![0])) run.push(word);
    else flush();
  });
  flush();
  // German capitalises every noun: only multi-word runs or quoted phrases count as names there.
  const seen = new Set<string>();
  return out.filter((e) => {
    const key = e.toLowerCase();
    if (seen.has(key) || e.length < 3) return false;
    seen.add(key);
    return true;
  });
}

/**
 * The names a question holds, to be searched on their own: namedEntities, but in German, which capitalises
 * every noun, only names of several words or quoted ones.
 */
export function questionNames(query: string, language: string): string[] {
  const names = namedEntities(query, language);
  return languageCode(language) === 'de' ? names.filter((e) => /\s|["“„]/.test(e)) : names;
}
