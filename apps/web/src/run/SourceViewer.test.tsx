/** @jest-environment jsdom */
import { createHash, webcrypto } from 'node:crypto';
import { TextEncoder } from 'node:util';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import type { SourceContent } from '../api/types';
import { ReportView } from './ReportView';
import { SourceViewer } from './SourceViewer';
import type { SourceTarget } from './source-target';
import { QUOTE, QUOTE_END, QUOTE_START, reportDocument, SOURCE_TEXT } from './test-fixtures';

// jsdom lays nothing out and has no modal dialogs: what the page calls is stood in for, and recorded.
const scrolled: unknown[] = [];
beforeAll(() => {
  Element.prototype.scrollIntoView = function (options?: unknown) {
    scrolled.push([this.tagName, this.textContent, options, this.closest('dialog')?.open]);
  };
  HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close ??= function (this: HTMLDialogElement) {
    this.removeAttribute('open');
    this.dispatchEvent(new Event('close'));
  };
});
beforeEach(() => {
  scrolled.length = 0;
  // A browser in a secure context hashes the text itself; jsdom has no Web Crypto, so Node's lends its own.
  Object.defineProperty(globalThis, 'crypto', { value: webcrypto, configurable: true });
  Object.defineProperty(globalThis, 'TextEncoder', { value: TextEncoder, configurable: true });
});

const SHA = createHash('sha256').update(SOURCE_TEXT, 'utf8').digest('hex');
const doc = reportDocument(SHA);
const [statistik, blog] = doc.sources;

function viewer(target: SourceTarget, content: SourceContent | null = { content_sha256: SHA, text: SOURCE_TEXT }) {
  const onClose = jest.fn();
  const view = render(<SourceViewer target={target} content={content} error={null} onClose={onClose} />);
  return { ...view, onClose, dialog: view.container.querySelector('dialog')! };
}

describe('SourceViewer', () => {
  it('marks the quoted span, counted in code points, and scrolls it to the middle', async () => {
    const quote = doc.findings[0]!.quotes[0]!;
    const { dialog } = viewer({ source: statistik!, quote });
    expect(dialog.open).toBe(true);
    expect(within(dialog).getByRole('heading', { name: 'Statistik 2024' })).toBeTruthy();
    const link = within(dialog).getByRole('link', { name: 'https://stat.example/solar' });
    expect(link.getAttribute('rel')).toBe('noreferrer noopener');
    expect(link.getAttribute('target')).toBe('_blank');
    const marks = dialog.querySelectorAll('mark');
    expect(marks).toHaveLength(1);
    expect(marks[0]!.textContent).toBe(QUOTE);
    expect(marks[0]!.textContent).toBe(Array.from(SOURCE_TEXT).slice(QUOTE_START, QUOTE_END).join(''));
    // The whole text, once, around the mark: no element per character.
    const text = within(dialog).getByRole('region', { name: 'Source text' });
    expect(text.textContent).toBe(SOURCE_TEXT);
    expect(text.children).toHaveLength(1);
    // Scrolled once the dialog is open: a hidden element does not scroll.
    expect(scrolled).toEqual([['MARK', QUOTE, { block: 'center' }, true]]);
    expect(await within(dialog).findByText('Text verified against its SHA-256')).toBeTruthy();
    expect(within(dialog).getByText(SHA)).toBeTruthy();
  });

  it('opens a bare citation without a mark', () => {
    const { dialog } = viewer({ source: statistik!, quote: null });
    expect(dialog.querySelector('mark')).toBeNull();
    expect(within(dialog).getByRole('region', { name: 'Source text' }).textContent).toBe(SOURCE_TEXT);
    expect(scrolled).toEqual([]);
  });

  it('says so when the text does not match the hash the report lists', async () => {
    const { dialog } = viewer({ source: statistik!, quote: null }, { content_sha256: SHA, text: SOURCE_TEXT + 'x' });
    expect(
      await within(dialog).findByText('This text does not match the SHA-256 the report lists for the source.'),
    ).toBeTruthy();
  });

  it('compares the hash the API sent where the browser cannot hash (no secure context)', () => {
    Object.defineProperty(globalThis, 'crypto', { value: {}, configurable: true });
    const { dialog } = viewer({ source: statistik!, quote: null });
    expect(within(dialog).getByText('Text verified against its SHA-256')).toBeTruthy();
  });

  it('closes with its Close button', () => {
    const { dialog, onClose } = viewer({ source: blog!, quote: null }, null);
    expect(within(dialog).getByRole('status').textContent).toBe('Loading the source text…');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(dialog.open).toBe(false);
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});

/** The report with the viewer, as the run page wires them (the text is given, not fetched). */
function ReportWithViewer() {
  const [target, setTarget] = useState<SourceTarget | null>(null);
  const [opener, setOpener] = useState<HTMLElement | null>(null);
  return (
    <>
      <ReportView
        doc={doc}
        onOpen={(next, from) => {
          setTarget(next);
          setOpener(from);
        }}
      />
      <SourceViewer
        target={target}
        content={target ? { content_sha256: SHA, text: SOURCE_TEXT } : null}
        error={null}
        onClose={() => {
          setTarget(null);
          opener?.focus();
        }}
      />
    </>
  );
}

describe('ReportView', () => {
  it('shows findings with confidence, named citations and six evidence bars per quote', () => {
    render(<ReportWithViewer />);
    const finding = document.getElementById('finding-1')!;
    expect(within(finding).getByText('Confidence 83 %')).toBeTruthy();
    expect(within(finding).getByRole('button', { name: 'Source 1: Statistik 2024' }).textContent).toBe('[1]');
    expect(within(finding).getByRole('button', { name: 'Source 2: Ein Blog' }).textContent).toBe('[2]');
    const bars = within(finding).getAllByRole('img');
    expect(bars.map((b) => b.getAttribute('aria-label'))).toEqual([
      'Source independence 0.80',
      'Primary source proximity 1.00',
      'Cross-source support 0.50',
      'Contradiction level 0.25',
      'Evidence directness 0.90',
      'Date relevance 0.75',
    ]);
    expect((bars[3]!.querySelector('.score-fill') as HTMLElement).style.width).toBe('25%');
    expect(screen.getByRole('link', { name: 'Finding [F1]' })).toBeTruthy();
  });

  it('shows disagreements as positions and every source with its kind and independence', () => {
    render(<ReportWithViewer />);
    const positions = document.querySelectorAll('.position');
    expect(Array.from(positions, (p) => p.textContent)).toEqual([
      expect.stringContaining('Supports14 %Statistik'),
      expect.stringContaining('Refutes11 %Blog'),
    ]);
    const sources = document.querySelectorAll('.source');
    expect(Array.from(sources, (s) => s.querySelector('.source-meta')!.textContent)).toEqual([
      'stat.example · government · Primary · 3 claims',
      'blog.example · blog · Secondary · 1 claim',
      'other.example · other · 0 claims',
    ]);
    expect(sources[2]!.textContent).toContain('Not cited');
    expect(within(sources[0] as HTMLElement).getByRole('img', { name: 'Independence 0.80' })).toBeTruthy();
  });

  it('opens the source at the quote from a citation, and gives the focus back on close', () => {
    render(<ReportWithViewer />);
    const finding = document.getElementById('finding-1')!;
    const citation = within(finding).getByRole('button', { name: 'Source 1: Statistik 2024' });
    citation.focus();
    fireEvent.click(citation);
    const dialog = document.querySelector('dialog')!;
    expect(dialog.open).toBe(true);
    expect(dialog.querySelector('mark')!.textContent).toBe(QUOTE);
    act(() => within(dialog).getByRole('button', { name: 'Close' }).click());
    expect(dialog.open).toBe(false);
    expect(document.activeElement).toBe(citation);

    // A citation whose source gives no quote for the finding opens its text unmarked.
    fireEvent.click(within(finding).getByRole('button', { name: 'Source 2: Ein Blog' }));
    expect(dialog.open).toBe(true);
    expect(dialog.querySelector('mark')).toBeNull();
  });

  it('opens the source from a quote', () => {
    render(<ReportWithViewer />);
    fireEvent.click(screen.getByRole('button', { name: `“${QUOTE}”` }));
    expect(document.querySelector('dialog mark')!.textContent).toBe(QUOTE);
  });
});
