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
  // The scores' switch is kept in local storage: each test starts as a first visit.
  localStorage.clear();
  // A browser in a secure context hashes the text itself; jsdom has no Web Crypto, so Node's lends its own.
  Object.defineProperty(globalThis, 'crypto', { value: webcrypto, configurable: true });
  Object.defineProperty(globalThis, 'TextEncoder', { value: TextEncoder, configurable: true });
});

/** What a reader sees of an element: its text without the words only assistive technology gets. */
function shownText(element: HTMLElement): string {
  const copy = element.cloneNode(true) as HTMLElement;
  copy.querySelectorAll('.visually-hidden').forEach((hidden) => hidden.remove());
  return copy.textContent ?? '';
}

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
  it('shows findings with confidence and citations named by their host, and six evidence bars on demand', () => {
    render(<ReportWithViewer />);
    const finding = document.getElementById('finding-1')!;
    expect(within(finding).getByText('Confidence 83 %')).toBeTruthy();
    const citation = (name: string) => within(finding).getByRole('button', { name });
    expect(shownText(citation('Source [1] stat.example – Statistik 2024'))).toBe('[1] stat.example');
    expect(shownText(citation('Source [2] blog.example – Ein Blog'))).toBe('[2] blog.example');
    // A finding is its text and its citations until the reader asks for the scores.
    expect(within(finding).queryAllByRole('img')).toEqual([]);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Show scores' }));
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
    expect(within(sources[0] as HTMLElement).queryByRole('img')).toBeNull();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Show scores' }));
    expect(within(sources[0] as HTMLElement).getByRole('img', { name: 'Independence 0.80' })).toBeTruthy();
  });

  it('opens the source at the quote from a citation, and gives the focus back on close', () => {
    render(<ReportWithViewer />);
    const finding = document.getElementById('finding-1')!;
    const citation = within(finding).getByRole('button', { name: 'Source [1] stat.example – Statistik 2024' });
    citation.focus();
    fireEvent.click(citation);
    const dialog = document.querySelector('dialog')!;
    expect(dialog.open).toBe(true);
    expect(dialog.querySelector('mark')!.textContent).toBe(QUOTE);
    act(() => within(dialog).getByRole('button', { name: 'Close' }).click());
    expect(dialog.open).toBe(false);
    expect(document.activeElement).toBe(citation);

    // A citation whose source gives no quote for the finding opens its text unmarked.
    fireEvent.click(within(finding).getByRole('button', { name: 'Source [2] blog.example – Ein Blog' }));
    expect(dialog.open).toBe(true);
    expect(dialog.querySelector('mark')).toBeNull();
  });

  it('opens the source from a quote', () => {
    render(<ReportWithViewer />);
    fireEvent.click(screen.getByRole('button', { name: `“${QUOTE}”` }));
    expect(document.querySelector('dialog mark')!.textContent).toBe(QUOTE);
  });

  it('keeps the reader’s choice to show the scores for the next report', () => {
    const first = render(<ReportWithViewer />);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Show scores' }));
    first.unmount();
    render(<ReportWithViewer />);
    expect(screen.getByRole('checkbox', { name: 'Show scores' })).toHaveProperty('checked', true);
    expect(within(document.getElementById('finding-1')!).getAllByRole('img')).toHaveLength(6);
  });

  it('copies a finding with its source and passage, and says so in the live region', async () => {
    const copied: string[] = [];
    Object.defineProperty(navigator, 'clipboard', {
      value: { writeText: async (text: string) => void copied.push(text) },
      configurable: true,
    });
    try {
      render(<ReportWithViewer />);
      const button = screen.getByRole('button', { name: 'Copy citation: finding 1, source 1' });
      await act(async () => fireEvent.click(button));
      expect(copied).toEqual([
        [
          'Solar lieferte 2024 rund 14 % des Stroms.',
          'Source [1]: Statistik 2024, https://stat.example/solar (retrieved 2026-01-01)',
          `Passage: “${QUOTE}”`,
        ].join('\n'),
      ]);
      expect(button.textContent).toBe('Copied');
      expect(screen.getByRole('status').textContent).toBe('Copied: finding 1, source 1.');
      // A source that gives no passage for the finding: the finding and the source alone.
      await act(async () =>
        fireEvent.click(screen.getByRole('button', { name: 'Copy citation: finding 1, source 2' })),
      );
      expect(copied[1]).toBe(
        'Solar lieferte 2024 rund 14 % des Stroms.\nSource [2]: Ein Blog, https://blog.example/p (retrieved 2026-01-01)',
      );
    } finally {
      Reflect.deleteProperty(navigator, 'clipboard');
    }
  });

  it('copies by selection where the page has no clipboard API (plain HTTP), and says when that fails too', async () => {
    const selected: string[] = [];
    let works = true;
    document.execCommand = (command: string) => {
      const area = document.activeElement as HTMLTextAreaElement;
      selected.push(`${command}:${area.value.slice(area.selectionStart, area.selectionEnd).split('\n')[0]}`);
      return works;
    };
    render(<ReportWithViewer />);
    const button = screen.getByRole('button', { name: 'Copy citation: finding 1, source 1' });
    button.focus();
    await act(async () => fireEvent.click(button));
    expect(selected).toEqual(['copy:Solar lieferte 2024 rund 14 % des Stroms.']);
    expect(screen.getByRole('status').textContent).toBe('Copied: finding 1, source 1.');
    // The focus is back on the button, and the text area is gone.
    expect(document.activeElement).toBe(button);
    expect(document.querySelector('textarea')).toBeNull();
    works = false;
    await act(async () => fireEvent.click(button));
    expect(screen.getByRole('status').textContent).toBe(
      'The citation could not be copied: this browser refused the clipboard.',
    );
  });

  it('opens a local file’s source in the viewer from its title, and names the file beside its citation', () => {
    const local = {
      ...doc,
      sources: doc.sources.map((s) =>
        s.source_id === 's2' ? { ...s, url: 'local:notes/solar%20blog.html', domain: 'local' } : s,
      ),
    };
    const opened: SourceTarget[] = [];
    render(<ReportView doc={local} onOpen={(t) => opened.push(t)} />);
    const finding = document.getElementById('finding-1')!;
    expect(shownText(within(finding).getByRole('button', { name: 'Source [2] solar blog.html – Ein Blog' }))).toBe(
      '[2] solar blog.html',
    );
    // No link a browser could not follow: a button that opens the stored text.
    const sources = document.querySelectorAll('.source');
    expect(within(sources[1] as HTMLElement).queryByRole('link')).toBeNull();
    fireEvent.click(within(sources[1] as HTMLElement).getByRole('button', { name: 'Ein Blog' }));
    expect(opened.map((t) => [t.source.source_id, t.quote])).toEqual([['s2', null]]);
    expect(sources[1]!.querySelector('.source-meta')!.textContent).toBe('solar blog.html · blog · Secondary · 1 claim');
  });
});
