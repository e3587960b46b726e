/** @jest-environment jsdom */
import { act, fireEvent, render, screen } from '@testing-library/react';
import { ApiError } from '../api/client';
import type { ResearchRequest } from '../api/types';
import { AskForm, askErrorOf } from './AskForm';

function type(label: string, value: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
}

describe('the Ask form', () => {
  it('starts with depth normal and language en, and sends what was typed with empty fields left out', async () => {
    const sent: ResearchRequest[] = [];
    render(<AskForm onStart={async (request) => void sent.push(request)} />);
    expect(screen.getByLabelText('Depth')).toHaveProperty('value', 'normal');
    expect(screen.getByLabelText('Language')).toHaveProperty('value', 'en');
    type('Question', '  Is coffee healthy?  ');
    type('Depth', 'deep');
    type('Include domains', 'who.int, nih.gov');
    type('Published after', '2024-01-01');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Start research' })));
    expect(sent).toEqual([
      {
        query: 'Is coffee healthy?',
        depth: 'deep',
        language: 'en',
        include_domains: ['who.int', 'nih.gov'],
        published_after: '2024-01-01',
      },
    ]);
  });

  it('asks for a question instead of sending a blank one', () => {
    const sent: ResearchRequest[] = [];
    render(<AskForm onStart={async (request) => void sent.push(request)} />);
    type('Question', '   ');
    fireEvent.click(screen.getByRole('button', { name: 'Start research' }));
    expect(sent).toEqual([]);
    expect(screen.getByRole('alert').textContent).toBe('Enter a question to research.');
    expect(screen.getByLabelText('Question').getAttribute('aria-invalid')).toBe('true');
  });

  it('shows a 422 beside the field it names, and whole in the alert at the top', async () => {
    const detail = 'include_domains.1: must be a host name or IP address (no scheme, path or port)';
    render(
      <AskForm
        onStart={async () => {
          throw new ApiError(422, detail);
        }}
      />,
    );
    type('Question', 'Is coffee healthy?');
    type('Include domains', 'who.int https://nih.gov/');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Start research' })));

    expect(screen.getByRole('alert').textContent).toBe(detail);
    const field = screen.getByLabelText('Include domains');
    expect(field.getAttribute('aria-invalid')).toBe('true');
    const described = (field.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .map((id) => document.getElementById(id));
    expect(described.map((element) => element?.textContent)).toContain(
      'Entry 2: must be a host name or IP address (no scheme, path or port)',
    );
    expect(document.activeElement).toBe(field);
    expect(screen.getByLabelText('Question').getAttribute('aria-invalid')).toBeNull();
    expect(screen.getByRole('button', { name: 'Start research' })).toHaveProperty('disabled', false);
  });

  it('keeps the button disabled while the request is under way, so it is sent once', async () => {
    let finish: () => void = () => {};
    let calls = 0;
    render(
      <AskForm
        onStart={() => {
          calls += 1;
          return new Promise<void>((resolve) => (finish = resolve));
        }}
      />,
    );
    type('Question', 'Is coffee healthy?');
    const button = screen.getByRole('button', { name: 'Start research' });
    fireEvent.click(button);
    fireEvent.submit(button.closest('form') as HTMLFormElement);
    expect(button).toHaveProperty('disabled', true);
    await act(async () => finish());
    expect(calls).toBe(1);
  });
});

describe('the Ask form from the keyboard and folded', () => {
  it('starts on Enter in the question, and takes Shift+Enter as a new line', async () => {
    const sent: ResearchRequest[] = [];
    render(<AskForm onStart={async (request) => void sent.push(request)} />);
    type('Question', 'Is coffee healthy?');
    const question = screen.getByLabelText('Question');
    expect(fireEvent.keyDown(question, { key: 'Enter', shiftKey: true })).toBe(true);
    expect(sent).toEqual([]);
    // An input method composing a word takes its Enter for itself.
    expect(fireEvent.keyDown(question, { key: 'Enter', isComposing: true })).toBe(true);
    expect(sent).toEqual([]);
    await act(async () => void fireEvent.keyDown(question, { key: 'Enter' }));
    expect(sent).toEqual([{ query: 'Is coffee healthy?', depth: 'normal', language: 'en' }]);
  });

  it('folds the source controls under Advanced, says how many are set, and unfolds for a refused one', async () => {
    const detail = 'exclude_domains.0: must be a host name or IP address (no scheme, path or port)';
    render(
      <AskForm
        onStart={async () => {
          throw new ApiError(422, detail);
        }}
      />,
    );
    const advanced = screen.getByText('Advanced').closest('details')!;
    expect(advanced.open).toBe(false);
    expect(advanced.contains(screen.getByLabelText('Include domains'))).toBe(true);
    type('Exclude domains', 'https://example.org/');
    expect(advanced.querySelector('summary')!.textContent).toBe('Advanced (1 set)');
    type('Question', 'Is coffee healthy?');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Start research' })));
    expect(advanced.open).toBe(true);
    expect(document.activeElement).toBe(screen.getByLabelText('Exclude domains'));
  });

  it('sends the LLM token cap under Advanced, and shows its 422 beside it', async () => {
    const sent: ResearchRequest[] = [];
    const detail = 'max_llm_tokens: must be at least 1';
    render(
      <AskForm
        onStart={async (request) => {
          sent.push(request);
          if (request.max_llm_tokens === 0) throw new ApiError(422, detail);
        }}
      />,
    );
    const advanced = screen.getByText('Advanced').closest('details')!;
    const cap = screen.getByLabelText('LLM token cap');
    expect(advanced.contains(cap)).toBe(true);
    type('Question', 'Is coffee healthy?');
    type('LLM token cap', '0');
    expect(advanced.querySelector('summary')!.textContent).toBe('Advanced (1 set)');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Start research' })));
    expect(sent[0]?.max_llm_tokens).toBe(0);
    expect(screen.getByRole('alert').textContent).toBe(detail);
    expect(advanced.open).toBe(true);
    expect(cap.getAttribute('aria-invalid')).toBe('true');
    const described = (cap.getAttribute('aria-describedby') ?? '').split(' ').map((id) => document.getElementById(id));
    expect(described.map((element) => element?.textContent)).toContain('must be at least 1');
    expect(document.activeElement).toBe(cap);
    type('LLM token cap', '50000');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Start research' })));
    expect(sent[1]).toEqual({ query: 'Is coffee healthy?', depth: 'normal', language: 'en', max_llm_tokens: 50_000 });
  });

  it('offers the languages as a list of names with the codes the API takes', async () => {
    const sent: ResearchRequest[] = [];
    render(<AskForm onStart={async (request) => void sent.push(request)} />);
    const language = screen.getByLabelText('Language') as HTMLSelectElement;
    const options = Array.from(language.options, (o) => [o.value, o.textContent]);
    expect(options.slice(0, 5)).toEqual([
      ['en', 'English – en'],
      ['de', 'German (Deutsch) – de'],
      ['fr', 'French (Français) – fr'],
      ['es', 'Spanish (Español) – es'],
      ['it', 'Italian (Italiano) – it'],
    ]);
    expect(options.every(([code]) => /^[a-z]{2}$/.test(code ?? ''))).toBe(true);
    type('Language', 'de');
    type('Question', 'Wie viel Strom liefert Solar?');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Start research' })));
    expect(sent[0]?.language).toBe('de');
  });
});

describe('a failed start, as the form shows it', () => {
  it('puts a field’s 422 by the field, a 400 by the depth, and anything else at the top only', () => {
    expect(askErrorOf(new ApiError(422, 'published_after: must be a date YYYY-MM-DD'))).toEqual({
      summary: 'published_after: must be a date YYYY-MM-DD',
      field: 'published_after',
      message: 'must be a date YYYY-MM-DD',
    });
    const depth = "Ungültige Tiefe 'x'. Gültig: 'quick', 'normal', 'deep'.";
    expect(askErrorOf(new ApiError(400, depth))).toEqual({ summary: depth, field: 'depth', message: null });
    expect(askErrorOf(new ApiError(422, 'max_sources: must be at most 15 for depth quick'))).toEqual({
      summary: 'max_sources: must be at most 15 for depth quick',
      field: null,
      message: null,
    });
    expect(askErrorOf(new ApiError(429, 'Too many runs'))).toEqual({
      summary: 'Too many runs',
      field: null,
      message: null,
    });
  });
});
