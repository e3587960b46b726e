/** @jest-environment jsdom */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { render, screen } from '@testing-library/react';
import { StateBadge, stateGroup, type StateGroup } from './StateBadge';

describe('the state badge', () => {
  it('shows the state itself, coloured by its group', () => {
    render(<StateBadge state="searching" />);
    const badge = screen.getByText('searching');
    expect(badge.className).toContain('state-badge--running');
  });

  it('groups the ends apart and every other state, a newer one too, as running', () => {
    expect(['completed', 'failed', 'cancelled'].map(stateGroup)).toEqual(['completed', 'failed', 'cancelled']);
    expect(['created', 'planning', 'synthesizing', 'a-state-yet-to-come'].map(stateGroup)).toEqual([
      'running',
      'running',
      'running',
      'running',
    ]);
  });
});

// WCAG 2.x relative luminance and contrast ratio of two #rrggbb colours.
function luminance(hex: string): number {
  const channels = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
  const [r = 0, g = 0, b = 0] = channels.map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

describe('the state badge colours', () => {
  const css = readFileSync(path.join(__dirname, 'StateBadge.css'), 'utf8');
  const dark = '@media (prefers-color-scheme: dark)';
  const schemes = { light: css.slice(0, css.indexOf(dark)), dark: css.slice(css.indexOf(dark)) };
  it.each<[keyof typeof schemes, StateGroup]>(
    (['light', 'dark'] as const).flatMap((scheme) =>
      (['running', 'completed', 'failed', 'cancelled'] as const).map((group): [typeof scheme, StateGroup] => [
        scheme,
        group,
      ]),
    ),
  )('meet AA contrast in the %s scheme for %s', (scheme, group) => {
    const rule = new RegExp(`\\.state-badge--${group} \\{\\s*color: (#[0-9a-f]{6});\\s*background: (#[0-9a-f]{6});`);
    const [, color = '', background = ''] = rule.exec(schemes[scheme]) ?? [];
    expect(color).toMatch(/^#/);
    expect(contrast(color, background)).toBeGreaterThanOrEqual(4.5);
  });
});
