import { z } from 'zod';
import { controlHost, isCalendarDate, MAX_CONTROL_DOMAINS } from '@research/core';

// The source controls of POST /v1/research (issue 13 section 4): optional fields beside SPEC's. Their own
// rules answer 422 before the depth's 400; max_sources' upper bound depends on the depth, so the service
// checks it once the depth is known.

function hostList(description: string, example: string[]) {
  return z
    .array(
      z
        .string({ error: 'must be a list of host names or IP addresses' })
        .max(300, 'must be a host name or IP address')
        .transform((value, ctx) => {
          const host = controlHost(value);
          if (host !== null) return host;
          ctx.addIssue({ code: 'custom', message: 'must be a host name or IP address (no scheme, path or port)' });
          return z.NEVER;
        }),
    )
    .max(MAX_CONTROL_DOMAINS, `must have at most ${MAX_CONTROL_DOMAINS} items`)
    .nullable()
    .optional()
    .transform((hosts) => [...new Set(hosts ?? [])])
    .meta({ description, example });
}

/** The fields, spread into the create body's object. */
export const sourceControlFields = {
  include_domains: hostList(
    `Sources only from these hosts and their subdomains (at most ${MAX_CONTROL_DOMAINS} host names or IP addresses).`,
    ['destatis.de', 'europa.eu'],
  ),
  exclude_domains: hostList(
    `No sources from these hosts or their subdomains (at most ${MAX_CONTROL_DOMAINS} host names or IP addresses).`,
    ['example.com'],
  ),
  published_after: z
    .string({ error: 'must be a date YYYY-MM-DD' })
    .refine(isCalendarDate, 'must be a date YYYY-MM-DD (a day of the calendar)')
    .nullable()
    .default(null)
    .meta({
      format: 'date',
      description:
        'Refuse sources dated before this day (YYYY-MM-DD); sources without a known date are kept and counted in the report.',
      example: '2024-01-01',
    }),
  max_sources: z
    .number({ error: 'must be an integer' })
    .int('must be an integer')
    .min(1, 'must be at least 1')
    .nullable()
    .default(null)
    .meta({
      type: 'integer',
      description: "At most this many sources (1 up to the depth's max_sources: 15, 30 or 60).",
      example: 10,
    }),
};

/** A host in both lists is a contradiction the caller must resolve. */
export function refuseOverlappingDomains(
  body: { include_domains: string[]; exclude_domains: string[] },
  ctx: z.RefinementCtx,
): void {
  const both = body.exclude_domains.find((host) => body.include_domains.includes(host));
  if (both !== undefined) {
    ctx.addIssue({ code: 'custom', path: ['exclude_domains'], message: `${both} is also in include_domains` });
  }
}
