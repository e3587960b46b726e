import { z } from 'zod';
import { validationError } from '@research/core';

const TYPE_NAMES: Readonly<Record<string, string>> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'a boolean',
  array: 'a list',
  object: 'an object',
};

function valueAt(data: unknown, path: readonly PropertyKey[]): unknown {
  let value = data;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

function reasonFor(issue: z.core.$ZodIssue, data: unknown): string {
  if (issue.code === 'invalid_type') {
    if (valueAt(data, issue.path) === undefined) return 'Required';
    // A schema's own message wins; zod's default one ("Invalid input: …") is rephrased.
    if (!issue.message.startsWith('Invalid input')) return issue.message;
    return `must be ${TYPE_NAMES[issue.expected] ?? issue.expected}`;
  }
  return issue.message;
}

function parseWith<S extends z.ZodType>(schema: S, data: unknown, rootField: string): z.output<S> {
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = issue.path.length ? issue.path.map(String).join('.') : rootField;
  throw validationError(field, reasonFor(issue, data));
}

/**
 * Validates a JSON body. An absent body is `body: Required` when `required`, otherwise an empty object;
 * anything but a JSON object is `body: must be a JSON object`.
 */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown, options: { required: boolean }): z.output<S> {
  if (body === undefined) {
    if (options.required) throw validationError('body', 'Required');
    return parseWith(schema, {}, 'body');
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw validationError('body', 'must be a JSON object');
  }
  return parseWith(schema, body, 'body');
}

/** Validates query-string parameters (`limit`, `offset`, …). */
export function parseQuery<S extends z.ZodType>(schema: S, query: unknown): z.output<S> {
  return parseWith(schema, query ?? {}, 'query');
}

/** Length in Unicode code points (what a person counts as characters), not UTF-16 units. */
export function codePointLength(value: string): number {
  let n = 0;
  for (const _ of value) n++;
  return n;
}

// A surrogate code point that is not half of a pair (the `u` flag reads pairs as one code point).
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * A string of `min`..`max` characters (code points) without NUL characters (Postgres refuses them in text)
 * and without lone surrogates (no UTF-8 encoding exists for them: URL encoding for a search provider
 * throws, and Postgres would store U+FFFD instead). `notBlank` also refuses whitespace-only text.
 */
export function boundedText(min: number, max: number, options: { notBlank?: boolean } = {}) {
  let schema = z
    .string()
    .refine(
      (v) => {
        // Cheap bound first: a string longer than 2*max UTF-16 units can never be <= max code points.
        if (v.length > max * 2) return false;
        const n = codePointLength(v);
        return n >= min && n <= max;
      },
      min === max
        ? `must be ${min} characters`
        : min === 0
          ? `must be at most ${max} characters`
          : `must be ${min} to ${max} characters`,
    )
    .refine((v) => !v.includes('\u0000'), 'must not contain NUL characters')
    .refine((v) => !LONE_SURROGATE.test(v), 'must be valid Unicode (no unpaired surrogates)');
  if (options.notBlank) schema = schema.refine((v) => v.trim().length > 0, 'must not be blank');
  return schema.meta({ ...(min > 0 ? { minLength: min } : {}), maxLength: max });
}

/** An integer query parameter given once as decimal digits, within [min, max], with a default. */
export function integerParam(options: { min: number; max: number; default: number; description: string }) {
  return z
    .string({ error: 'must be a single integer' })
    .regex(/^\d+$/, 'must be an integer')
    .transform(Number)
    .pipe(
      z
        .number()
        .min(options.min, `must be at least ${options.min}`)
        .max(options.max, `must be at most ${options.max}`)
        .int('must be an integer'),
    )
    .default(options.default)
    .meta({
      type: 'integer',
      minimum: options.min,
      maximum: options.max,
      default: options.default,
      description: options.description,
    });
}
