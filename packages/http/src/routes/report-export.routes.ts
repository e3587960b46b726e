import type { Request, RequestHandler } from 'express';
import { finishInSlices } from '@research/core';
import type { AppContext } from '../context';
import { reportDocumentWork, getRunClaims, getRunEvidence, getRunReport, getRunSources } from '@research/runs';
import { EXPORTS, REPORT_MEDIA_TYPES } from '../presenters/report-export/report-formats';
import { REPORT_HTML_CSP } from '../presenters/report-export/report-html';
import { presentReportDocument } from '../presenters/report-document.presenter';
import { presentReport } from '../presenters/research.presenter';
import { visibleRunOf } from '../request-scope';
import { parseQuery } from '../validation';
import { reportQuerySchema, type ReportDocumentResponse, type ReportFormat } from './report-export.schemas';

/** `?format=` when given, otherwise the best type `Accept` names; JSON for `*\/*`, none, or only others. */
function reportFormatOf(req: Request): ReportFormat {
  const { format } = parseQuery(reportQuerySchema, req.query);
  if (format) return format;
  const best = req.accepts(Object.keys(REPORT_MEDIA_TYPES));
  return best ? REPORT_MEDIA_TYPES[best]! : 'json';
}

/**
 * GET /v1/research/{id}/report: SPEC 4.8's JSON, or the report exported as Markdown, HTML or PDF (the same
 * report: before one exists, the notice and the defaults). An export is served inline with a file name.
 */
export function reportHandler(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    const run = visibleRunOf(res, String(req.params.id));
    const format = reportFormatOf(req);
    res.vary('Accept');
    const row = await getRunReport(ctx.db, run);
    const report = presentReport(run, row);
    if (format === 'json') {
      res.json(report);
      return;
    }
    const [sources, claims] = row
      ? await Promise.all([getRunSources(ctx.db, run), getRunClaims(ctx.db, run)])
      : [[], []];
    const { contentType, extension, render } = EXPORTS[format];
    const body = await render(await finishInSlices(reportDocumentWork(report, sources, claims)));
    res.set({
      'Content-Type': contentType,
      'Content-Disposition': `inline; filename="research-${run.id}.${extension}"`,
      'X-Content-Type-Options': 'nosniff',
    });
    if (format === 'html') res.set('Content-Security-Policy', REPORT_HTML_CSP);
    res.send(body);
  };
}

/**
 * GET /v1/research/{id}/report/document: the report as the exports number it, for a page that links each
 * quote to its passage (read rules as GET …/report). Sources, claims and evidence are read even before a
 * report exists: the sources are listed from the start.
 */
export function reportDocumentHandler(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    const run = visibleRunOf(res, String(req.params.id));
    const [row, sources, claims, evidence] = await Promise.all([
      getRunReport(ctx.db, run),
      getRunSources(ctx.db, run),
      getRunClaims(ctx.db, run),
      getRunEvidence(ctx.db, run),
    ]);
    const doc = await finishInSlices(reportDocumentWork(presentReport(run, row), sources, claims));
    res.json(presentReportDocument(run, doc, { sources, claims, evidence }) satisfies ReportDocumentResponse);
  };
}
