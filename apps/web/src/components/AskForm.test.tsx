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
