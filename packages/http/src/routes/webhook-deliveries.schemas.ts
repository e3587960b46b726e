import { z } from 'zod';

// ---- Responses -----------------------------------------------------------------------------------

export const webhookAttemptSchema = z
  .object({
    attempt: z.number().int().meta({ description: 'The attempt number: 1 up to 5.' }),
    at: z.string().meta({ format: 'date-time', description: 'When the attempt was recorded (ISO 8601 UTC).' }),
    event: z.string().meta({ description: '`research.completed`, `research.failed` or `research.cancelled`.' }),
    status_code: z.number().int().nullable().meta({ description: "The receiver's HTTP status; null when none." }),
    error: z
      .string()
      .nullable()
      .meta({ description: 'Why there was no status code (timeout, refused address, connection failed).' }),
  })
  .meta({ id: 'WebhookAttempt' });
export type WebhookAttempt = z.infer<typeof webhookAttemptSchema>;

export const webhookDeliveriesResponseSchema = z
  .object({
    research_id: z.string(),
    items: z.array(webhookAttemptSchema),
  })
  .meta({
    id: 'WebhookDeliveriesResponse',
    example: {
      research_id: '0d9c1a52-6a0e-4c1e-9f1b-3f2a8d4c5e61',
      items: [
        { attempt: 1, at: '2026-11-28T09:31:02.120Z', event: 'research.completed', status_code: 500, error: null },
        { attempt: 2, at: '2026-11-28T09:31:12.301Z', event: 'research.completed', status_code: 200, error: null },
      ],
    },
  });
export type WebhookDeliveriesResponse = z.infer<typeof webhookDeliveriesResponseSchema>;
