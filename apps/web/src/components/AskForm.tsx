import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent, type ReactNode } from 'react';
import { ApiError, errorText } from '../api/client';
import { fieldProblemOf } from '../api/field-problem';
import type { Depth, ResearchRequest } from '../api/types';
import { researchRequestOf, type AskFields } from './ask-request';
import { CollectionsChoice, type CollectionChoice } from './CollectionsChoice';
import { REPORT_LANGUAGES, SEARCH_LANGUAGES } from './languages';
import './AskForm.css';

/** The request fields the form has an input for, so a 422 naming one is shown beside it. */
const FIELDS = [
  'query',
  'depth',
  'language',
  'include_domains',
  'exclude_domains',
  'published_after',
  'collection_ids',
  'max_llm_tokens',
] as const;
type Field = (typeof FIELDS)[number];

/** What went wrong with a submission: the whole text (at the top), and the field it concerns when there is one. */
export interface AskError {
  summary: string;
  field: Field | null;
  /** The text beside the field; null when the summary says it all. */
  message: string | null;
}

/** How a failed POST /v1/research is shown: a 422 by the field it names, a 400 (the body is always JSON, so it is the depth's) by the depth. */
export function askErrorOf(error: unknown): AskError {
  if (error instanceof ApiError && error.status === 422) {
    const problem = fieldProblemOf(error.detail, FIELDS);
    return {
      summary: error.detail,
      field: (problem?.field as Field | undefined) ?? null,
      message: problem?.message ?? null,
    };
  }
  if (error instanceof ApiError && error.status === 400)
    return { summary: error.detail, field: 'depth', message: null };
  return { summary: errorText(error), field: null, message: null };
}

/** The fields folded under "Advanced": the source controls, the collections and the cap on LLM tokens. */
const ADVANCED: readonly Field[] = [
  'include_domains',
  'exclude_domains',
  'published_after',
  'collection_ids',
  'max_llm_tokens',
];

const SUMMARY_ID = 'ask-error';
const inputId = (field: Field) => `ask-${field.replaceAll('_', '-')}`;

/** What a form control gets from its FormField: its id and how assistive technology finds its hint and error. */
interface ControlAria {
  id: string;
  'aria-invalid'?: true;
  'aria-describedby'?: string;
}

/** A labelled control with its hint, and the error beside it when the last submission's problem was this field. */
function FormField({
  field,
  label,
  hint,
  error,
  children,
}: {
  field: Field;
  label: string;
  hint?: string;
  error: AskError | null;
  children: (aria: ControlAria) => ReactNode;
}) {
  const id = inputId(field);
  const invalid = error?.field === field;
  const messageId = error?.message ? `${id}-error` : SUMMARY_ID;
  const describedBy = [hint ? `${id}-hint` : '', invalid ? messageId : ''].filter(Boolean).join(' ');
  return (
    <div className="ask-field">
      <label htmlFor={id}>{label}</label>
      {hint && (
        <p id={`${id}-hint`} className="hint">
          {hint}
        </p>
      )}
      {invalid && error.message && (
        <p id={messageId} className="error">
          {error.message}
        </p>
      )}
      {children({ id, 'aria-invalid': invalid || undefined, 'aria-describedby': describedBy || undefined })}
    </div>
  );
}

const EMPTY: AskFields = {
  query: '',
  depth: 'normal',
  language: 'en',
  includeDomains: '',
  excludeDomains: '',
  publishedAfter: '',
};

/** Enter sends the question, as in a search box or a chat; Shift+Enter (or an IME's Enter) is a new line. */
function submitOnEnter(e: KeyboardEvent<HTMLTextAreaElement>) {
  if (e.key !== 'Enter' || e.shiftKey || e.nativeEvent.isComposing) return;
  e.preventDefault();
  e.currentTarget.form?.requestSubmit();
}

/** How many advanced settings are set, to say on the folded "Advanced" that something inside is in force. */
function advancedCount(fields: AskFields): number {
  const controls = [fields.includeDomains, fields.excludeDomains, fields.publishedAfter, fields.maxLlmTokens ?? ''];
  return controls.filter((v) => v.trim()).length + (fields.collectionIds?.length ? 1 : 0);
}

/** The run's language: the five the report is written in, then those only the search uses. */
function LanguageField({
  value,
  onChange,
  error,
}: {
  value: string;
  onChange: (e: { target: { value: string } }) => void;
  error: AskError | null;
}) {
  return (
    <FormField
      field="language"
      label="Language"
      hint="Reports are written in English, German, French, Spanish or Italian; with another language the search looks for pages in it and the report is in English."
      error={error}
    >
      {(aria) => (
        <select {...aria} value={value} onChange={onChange}>
          <optgroup label="Search and report">
            {REPORT_LANGUAGES.map((l) => (
              <option key={l.code} value={l.code}>{`${l.name} – ${l.code}`}</option>
            ))}
          </optgroup>
          <optgroup label="Search only (report in English)">
            {SEARCH_LANGUAGES.map((l) => (
              <option key={l.code} value={l.code}>{`${l.name} – ${l.code}`}</option>
            ))}
          </optgroup>
        </select>
      )}
    </FormField>
  );
}

/** The cap on the run's LLM tokens (max_llm_tokens): empty for none. */
function LlmTokenCapField({
  value,
  onChange,
  error,
}: {
  value: string;
  onChange: (e: { target: { value: string } }) => void;
  error: AskError | null;
}) {
  return (
    <fieldset>
      <legend>Cost (optional)</legend>
      <FormField
        field="max_llm_tokens"
        label="LLM token cap"
        hint="The most LLM tokens (prompt and completion) the run may use; past it the run goes on without the language model and its report says so. Empty: no cap."
        error={error}
      >
        {(aria) => (
          <input {...aria} type="number" inputMode="numeric" min={1} step={1} value={value} onChange={onChange} />
        )}
      </FormField>
    </fieldset>
  );
}

/** The plan review's checkbox: the run then stops after planning until its queries are approved. */
function ReviewPlanCheck({ checked, onChange }: { checked: boolean; onChange: (checked: boolean) => void }) {
  return (
    <div className="ask-check">
      <input
        id="ask-review-plan"
        type="checkbox"
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
        aria-describedby="ask-review-plan-hint"
      />
      <label htmlFor="ask-review-plan">Review the plan before searching</label>
      <p id="ask-review-plan-hint" className="hint">
        The run stops after planning and shows you its queries; it searches once you approve them.
      </p>
    </div>
  );
}

/**
 * The question and its settings, the source controls folded under "Advanced"; `onStart` sends them (and moves
 * on), a rejection is shown as the API words it.
 */
export function AskForm({
  onStart,
  depthNote,
  collections = [],
}: {
  onStart: (request: ResearchRequest) => Promise<void>;
  /** Shown under the depth's choice, for the depth chosen (the page's estimate of what a run of it costs). */
  depthNote?: (depth: Depth) => ReactNode;
  /** The collections the key may read, offered under "Advanced". */
  collections?: readonly CollectionChoice[];
}) {
  const [fields, setFields] = useState<AskFields>(EMPTY);
  const [error, setError] = useState<AskError | null>(null);
  const [busy, setBusy] = useState(false);
  const [advancedOpen, setAdvancedOpen] = useState(false);
  const summary = useRef<HTMLParagraphElement>(null);
  const set = (name: keyof AskFields) => (e: { target: { value: string } }) =>
    setFields((f) => ({ ...f, [name]: e.target.value }));
  // Codes and host names, not words: no spelling marks under them.
  const input =
    (name: 'includeDomains' | 'excludeDomains' | 'publishedAfter', type = 'text') =>
    (aria: ControlAria) => <input {...aria} type={type} spellCheck={false} value={fields[name]} onChange={set(name)} />;

  useEffect(() => {
    // After a failed submission the focus goes where the problem is: its field, or the message at the top.
    if (!error) return;
    if (error.field) document.getElementById(inputId(error.field))?.focus();
    else summary.current?.focus();
  }, [error]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const request = researchRequestOf(fields);
    if (!request.query) {
      setError({ summary: 'Enter a question to research.', field: 'query', message: 'Enter a question.' });
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await onStart(request);
    } catch (e) {
      const problem = askErrorOf(e);
      // A refused source control is folded away: unfold it, so its field can take the focus and show why.
      if (problem.field && ADVANCED.includes(problem.field)) setAdvancedOpen(true);
      setError(problem);
      setBusy(false);
    }
  }

  return (
    <form className="ask-form" onSubmit={submit} noValidate>
      {error && (
        <p id={SUMMARY_ID} ref={summary} role="alert" className="error" tabIndex={-1}>
          {error.summary}
        </p>
      )}
      <FormField
        field="query"
        label="Question"
        hint="Enter starts the research; Shift+Enter starts a new line."
        error={error}
      >
        {(aria) => (
          <textarea
            {...aria}
            rows={4}
            required
            value={fields.query}
            onChange={set('query')}
            onKeyDown={submitOnEnter}
          />
        )}
      </FormField>
      <FormField field="depth" label="Depth" hint="Quick reads fewer sources; deep reads the most." error={error}>
        {(aria) => (
          <select
            {...aria}
            value={fields.depth}
            onChange={(e) => setFields((f) => ({ ...f, depth: e.target.value as Depth }))}
          >
            <option value="quick">quick</option>
            <option value="normal">normal</option>
            <option value="deep">deep</option>
          </select>
        )}
      </FormField>
      {depthNote?.(fields.depth)}
      <LanguageField value={fields.language} onChange={set('language')} error={error} />
      <details className="ask-advanced" open={advancedOpen} onToggle={(e) => setAdvancedOpen(e.currentTarget.open)}>
        <summary>Advanced{advancedCount(fields) > 0 && ` (${advancedCount(fields)} set)`}</summary>
        <fieldset>
          <legend>Sources (optional)</legend>
          <FormField
            field="include_domains"
            label="Include domains"
            hint="Only sources from these hosts and their subdomains; separate them with commas or spaces."
            error={error}
          >
            {input('includeDomains')}
          </FormField>
          <FormField
            field="exclude_domains"
            label="Exclude domains"
            hint="No sources from these hosts or their subdomains."
            error={error}
          >
            {input('excludeDomains')}
          </FormField>
          <FormField
            field="published_after"
            label="Published after"
            hint="Sources dated before this day are left out; sources without a date are kept."
            error={error}
          >
            {input('publishedAfter', 'date')}
          </FormField>
        </fieldset>
        {collections.length > 0 && (
          <CollectionsChoice
            id={inputId('collection_ids')}
            collections={collections}
            chosen={fields.collectionIds ?? []}
            only={fields.collectionsOnly ?? false}
            problem={error?.field === 'collection_ids' ? (error.message ?? error.summary) : null}
            onChange={(collectionIds, collectionsOnly) => setFields((f) => ({ ...f, collectionIds, collectionsOnly }))}
          />
        )}
        <LlmTokenCapField value={fields.maxLlmTokens ?? ''} onChange={set('maxLlmTokens')} error={error} />
      </details>
      <ReviewPlanCheck
        checked={fields.reviewPlan ?? false}
        onChange={(reviewPlan) => setFields((f) => ({ ...f, reviewPlan }))}
      />
      <button type="submit" disabled={busy} aria-busy={busy || undefined}>
        Start research
      </button>
    </form>
  );
}
