import { claimTextOf } from '../claims/claim-text';
import { SENTENCE_END } from '../claims/statements';
import { languageProfile } from '../text/language';
import { sentences } from '../text/sentences';

/**
 * Sentences before a claim taken at most to make it stand alone. A pronoun or a connective leans on the sentence
 * just before it, which may lean on its own ("… the Barcelona lab. It is run by … . They test …"): two cover such a
 * chain without turning the summary's first sentence into a paragraph. Swept with `npm run eval -- … --replay` on
 * saved runs (summaries opening with a finding whose first sentence stands alone, protocol.ts; tune: the first 100
 * of each multihop set, HotpotQA / 2Wiki / MuSiQue, and the local evaluation; then check): 0 (none, as before):
 * 75/92, 86/100, 41/46, local 57/63; check 314/368, 148/160, 27/29. 1: 89, 96, 44, 59; check 356, 156, 28. 2: 92,
 * 98, 45, 61; check 365, 157, 29. 3: 92, 98, 45, 62; check 367, 160, 29. Two: three adds nothing on tune. (The
 * answer in the first sentence, which the sentence before sometimes names: tune HotpotQA 47 → 49 of 95, MuSiQue 12 →
 * 14 of 61 from one on; check HotpotQA 202 → 205 of 374, 2Wiki 78 → 79 of 108.)
 */
export const MAX_CONTEXT_SENTENCES = 2;

/** Whether a sentence opens leaning on the one before it ("He…", "This…", "But…", "The opposite…"). */
export function leansBack(sentence: string, language: string): boolean {
  return languageProfile(language).leansBack.test(sentence);
}

/**
 * The words of a claim as a reader can take them alone: its text, after the sentences of its paragraph it leans on
 * (leansBack), as its source writes them (reference marks and datelines dropped, as claimTextOf does): "Zeev Sharon
 * and Michael Forrest Jones both run hotel start-ups in the US. Sharon is the CEO of Hotelied …". The text alone
 * when it leans on nothing, follows a heading, or its span is not found in the source's text.
 */
export function standaloneText(
  claim: { claim_text: string; evidence_span: string },
  source: { content: string } | undefined,
  language: string,
): string {
  if (!leansBack(claim.claim_text, language) || !source) return claim.claim_text;
  const at = claim.evidence_span ? source.content.indexOf(claim.evidence_span) : -1;
  if (at < 0) return claim.claim_text;
  const context: string[] = [];
  // Back through the sentences before the span, across paragraphs (news gives one sentence a paragraph), never
  // across a line that does not end as a sentence does: a heading starts another matter.
  const lines = source.content.slice(0, at).split('\n');
  for (let l = lines.length - 1; l >= 0 && context.length < MAX_CONTEXT_SENTENCES; l--) {
    const line = lines[l]!.trim();
    if (!line) continue;
    if (l < lines.length - 1 && !SENTENCE_END.test(line)) break;
    // Sentences of any length: a short one is an antecedent too.
    const before = sentences(line, language, { min: 1 });
    let leaning = true;
    for (let i = before.length - 1; i >= 0 && context.length < MAX_CONTEXT_SENTENCES; i--) {
      const text = claimTextOf(before[i]!.text);
      context.unshift(text);
      leaning = leansBack(text, language);
      if (!leaning) break;
    }
    if (!leaning) break;
  }
  return context.length > 0 ? `${context.join(' ')} ${claim.claim_text}` : claim.claim_text;
}
