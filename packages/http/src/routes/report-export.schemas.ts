import { z } from 'zod';
import { EXPORT_FORMATS } from '../presenters/report-export/report-formats';

/** The formats of a report: SPEC 4.8's JSON and the exports. */
export const REPORT_FORMATS = ['json', ...EXPORT_FORMATS] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/** GET /v1/research/{id}/report query string (other parameters are ignored, as before the exports). */
export const reportQuerySchema = z.object({
  format: z
    .enum(REPORT_FORMATS, { error: `must be one of ${REPORT_FORMATS.join(', ')}` })
    .optional()
    .meta({
      description:
        'The report as `json` (SPEC 4.8, the default), `markdown`, `html` (one self-contained page) or `pdf`. ' +
        'Without it, `Accept: text/markdown`, `text/html` or `application/pdf` chooses; with it, `format` wins.',
    }),
});
