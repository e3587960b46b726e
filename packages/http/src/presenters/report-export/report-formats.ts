import type { ReportDocument } from '@research/runs';
import { renderReportHtml } from './report-html';
import { renderReportMarkdown } from './report-markdown';
import { renderReportPdf } from './report-pdf';

/** The formats of GET /v1/research/{id}/report besides JSON (SPEC 4.8's body, the default). */
export const EXPORT_FORMATS = ['markdown', 'html', 'pdf'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** How each export format is served and rendered. */
export const EXPORTS: Readonly<
  Record<
    ExportFormat,
    { contentType: string; extension: string; render: (doc: ReportDocument) => string | Promise<Buffer> }
  >
> = {
  markdown: { contentType: 'text/markdown; charset=utf-8', extension: 'md', render: renderReportMarkdown },
  html: { contentType: 'text/html; charset=utf-8', extension: 'html', render: renderReportHtml },
  pdf: { contentType: 'application/pdf', extension: 'pdf', render: (doc) => renderReportPdf(doc) },
};

/** The media types a client may ask for with `Accept`, JSON first (the default for `*` and for none). */
export const REPORT_MEDIA_TYPES: Readonly<Record<string, 'json' | ExportFormat>> = {
  'application/json': 'json',
  'text/markdown': 'markdown',
  'text/html': 'html',
  'application/pdf': 'pdf',
};
