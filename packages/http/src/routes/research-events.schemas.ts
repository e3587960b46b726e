import { z } from 'zod';
import { integerParam } from '../validation';

// ---- Requests ------------------------------------------------------------------------------------

/** GET /v1/research/{id}/events query string. */
export const runEventsQuerySchema = z.object({
  after: integerParam({
    min: 0,
    max: 2 ** 31 - 1,
    default: 0,
    description: 'Only events with a greater `seq` (a stream resumes after the last it saw; `Last-Event-ID` wins).',
  }),
  limit: integerParam({ min: 1, max: 1000, default: 100, description: 'JSON pages only: events at most (1 to 1000).' }),
});
export type RunEventsQuery = z.output<typeof runEventsQuerySchema>;

/** GET /v1/research/{id}/events headers, as the OpenAPI document states them (read by resumeAfter). */
export const runEventsHeadersSchema = z.object({
  'last-event-id': z
    .string()
    .regex(/^\d{1,9}$/)
    .optional()
    .meta({
      description:
        'The `seq` of the last event seen (an EventSource sends it when it reconnects): the stream resumes after it; ' +
        'it wins over `after`. After the `end` event, 204.',
    }),
});

// ---- Responses -----------------------------------------------------------------------------------

export const runEventItemSchema = z
  .object({
    seq: z.number().int().meta({ description: 'The event number: 1, 2, 3 … per run.' }),
    type: z.string().meta({
      description:
        '`state`, `plan`, `query`, `source`, `claims`, `contradiction`, `report`, `error`, `end`; also `engine`, `fallback`, `search`, `fetch`, `bridge`, `budget`, `search_failures`, `ungrounded`, `stopped`; and for a run created with `review_plan`, `review` (`action`: `waiting`, `edited`, `approved` or `expired`).',
    }),
    at: z.string().meta({ description: 'When the event was written (ISO 8601 UTC).' }),
  })
  .catchall(z.unknown())
  .meta({
    id: 'RunEvent',
    example: {
      seq: 7,
      type: 'source',
      at: '2026-11-28T09:30:01.250Z',
      round: 1,
      url: 'https://example.org/a',
      outcome: 'fetched',
    },
  });
export type RunEventItem = z.infer<typeof runEventItemSchema>;

export const runEventsResponseSchema = z
  .object({
    items: z.array(runEventItemSchema),
    next_after: z.number().int().meta({ description: 'Pass as `after` for the next page.' }),
  })
  .meta({ id: 'RunEventsResponse' });
export type RunEventsResponse = z.infer<typeof runEventsResponseSchema>;

export const cancelResponseSchema = z
  .object({
    research_id: z.string(),
    status: z.literal('cancelling'),
  })
  .meta({ id: 'CancelResearchResponse' });
export type CancelResponse = z.infer<typeof cancelResponseSchema>;
