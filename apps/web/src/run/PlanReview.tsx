import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { errorText, type ApiClient } from '../api/client';
import { approvePlan, editPlan, getPlan, reviewedQueries, type PlanEdit, type ReviewedPlan } from '../api/plan-review';
import { useResource } from '../use-resource';

/** A list as typed in a textarea: one item a line, blank lines left out. */
function linesOf(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
}

/** The texts of the two lists of `plan`, one item a line. */
function textsOf(plan: ReviewedPlan): { queries: string; subQuestions: string } {
  return { queries: reviewedQueries(plan).join('\n'), subQuestions: plan.sub_questions.join('\n') };
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((item, i) => item === b[i]);
}

/** A labelled textarea of one list, with its hint. */
function ListField(props: { id: string; label: string; hint: string; value: string; onChange: (v: string) => void }) {
  const rows = Math.min(12, Math.max(3, props.value.split('\n').length + 1));
  return (
    <div className="plan-review-field">
      <label htmlFor={props.id}>{props.label}</label>
      <p id={`${props.id}-hint`} className="hint">
        {props.hint}
      </p>
      <textarea
        id={props.id}
        aria-describedby={`${props.id}-hint`}
        rows={rows}
        spellCheck={false}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
      />
    </div>
  );
}

/**
 * The plan of a run that waits for its review (state awaiting_review): its queries and sub-questions, editable
 * one a line, saved with "Save changes" and approved (unsaved changes saved first) with "Approve and search".
 * The header's Stop button cancels the run instead.
 */
export function PlanReview({ api, id }: { api: ApiClient; id: string }) {
  const load = useCallback((signal: AbortSignal) => getPlan(api, id, signal), [api, id]);
  const stored = useResource(load);
  const plan = stored.data?.plan ?? null;
  const [texts, setTexts] = useState<{ queries: string; subQuestions: string } | null>(null);
  const [phase, setPhase] = useState<'idle' | 'saving' | 'approving' | 'approved'>('idle');
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState('');

  useEffect(() => {
    if (plan && texts === null) setTexts(textsOf(plan));
  }, [plan, texts]);

  if (stored.error && !plan) {
    return (
      <p role="alert" className="error">
        {stored.error}
      </p>
    );
  }
  if (!plan || !texts) return <p role="status">Loading the plan…</p>;

  const edit: PlanEdit = { search_queries: linesOf(texts.queries), sub_questions: linesOf(texts.subQuestions) };
  const changed =
    !sameList(edit.search_queries, reviewedQueries(plan)) || !sameList(edit.sub_questions, plan.sub_questions);
  const busy = phase !== 'idle';

  async function save(): Promise<boolean> {
    try {
      await editPlan(api, id, edit);
      stored.reload();
      return true;
    } catch (e) {
      setError(errorText(e));
      return false;
    }
  }

  async function saveOnly() {
    setPhase('saving');
    setError(null);
    setNotice('');
    if (await save()) setNotice('Changes saved.');
    setPhase('idle');
  }

  async function approve(event: FormEvent) {
    event.preventDefault();
    setPhase('approving');
    setError(null);
    setNotice('');
    if (changed && !(await save())) return setPhase('idle');
    try {
      await approvePlan(api, id);
      setNotice('Plan approved: the run goes on searching.');
      setPhase('approved');
    } catch (e) {
      setError(errorText(e));
      setPhase('idle');
    }
  }

  return (
    <section aria-labelledby="review-heading" className="plan-review">
      <h2 id="review-heading">Review the plan</h2>
      <p className="hint">
        The run waits for you before it searches. Change its queries and sub-questions, then approve the plan; Stop
        research ends the run instead.
      </p>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <form onSubmit={(e) => void approve(e)}>
        <ListField
          id="review-queries"
          label="Search queries"
          hint="One a line, at most 20. The question itself and the names it holds are always searched first."
          value={texts.queries}
          onChange={(queries) => setTexts((t) => t && { ...t, queries })}
        />
        <ListField
          id="review-sub-questions"
          label="Sub-questions"
          hint="One a line, at most 20: what a complete answer must settle."
          value={texts.subQuestions}
          onChange={(subQuestions) => setTexts((t) => t && { ...t, subQuestions })}
        />
        <div className="plan-review-actions">
          <button type="submit" disabled={busy} aria-busy={phase === 'approving' || undefined}>
            Approve and search
          </button>
          <button type="button" className="secondary" disabled={busy || !changed} onClick={() => void saveOnly()}>
            Save changes
          </button>
        </div>
        <p role="status" className="hint">
          {notice}
        </p>
      </form>
    </section>
  );
}
