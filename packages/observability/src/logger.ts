import winston from 'winston';
import type { AppConfig } from '@research/core';

export type Logger = winston.Logger;

// Keys whose values are secrets wherever they appear in a log entry.
const SECRET_KEY =
  /(^|_|-)(api[-_]?key|apikey|key|password|current_password|secret|token|authorization|cookie|hash|salt)$/i;
// Secret-looking substrings inside free text: our API keys, bearer tokens, and key=value pairs.
const SECRET_TEXT: Array<[RegExp, string]> = [
  [/rsk_[A-Za-z0-9]+_[A-Za-z0-9_-]+/g, 'rsk_[REDACTED]'],
  [/(bearer\s+)[^\s"',]+/gi, '$1[REDACTED]'],
  [/((?:api[-_]?key|password|token|secret)=)[^&\s"']+/gi, '$1[REDACTED]'],
  [/(\/\/[^:/@\s]+:)[^@/\s]+@/g, '$1[REDACTED]@'],
];

// Every SECRET_TEXT pattern needs one of these; text without any (most log text) is returned as it is.
const MAY_HOLD_SECRET = /rsk_|bearer|=|@/i;

/** Replaces secrets in free text (API keys, bearer tokens, URL credentials). */
export function redactText(text: string): string {
  if (!MAY_HOLD_SECRET.test(text)) return text;
  let out = text;
  for (const [pattern, replacement] of SECRET_TEXT) out = out.replace(pattern, replacement);
  return out;
}

function redactValue(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return redactText(value);
  if (depth > 6 || value === null || typeof value !== 'object') return value;
  // Duck-typed: errors from Node internals or other realms fail `instanceof Error`.
  if (
    value instanceof Error ||
    (typeof (value as Error).message === 'string' && typeof (value as Error).name === 'string')
  ) {
    const error = value as Error & { code?: unknown };
    return {
      name: error.name,
      message: redactText(error.message),
      ...(error.code !== undefined ? { code: error.code } : {}),
    };
  }
  if (Array.isArray(value)) return value.map((v) => redactValue(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] = SECRET_KEY.test(k) && v !== undefined && v !== null ? '[REDACTED]' : redactValue(v, depth + 1);
  }
  return out;
}

// Redaction happens here, once, so no call site can leak a secret by forgetting to.
const redact = winston.format((info) => {
  for (const key of Object.keys(info)) {
    if (key === 'level') continue;
    const value = (info as Record<string, unknown>)[key];
    (info as Record<string, unknown>)[key] =
      SECRET_KEY.test(key) && value !== undefined && value !== null ? '[REDACTED]' : redactValue(value, 0);
  }
  return info;
});

/** Builds the root logger: JSON lines to stdout (or a readable format with LOG_FORMAT=pretty). */
export function createLogger(
  config: Pick<AppConfig, 'logLevel' | 'logFormat'>,
  defaultMeta: Record<string, unknown> = {},
): Logger {
  const format =
    config.logFormat === 'pretty'
      ? winston.format.combine(redact(), winston.format.timestamp(), winston.format.colorize(), winston.format.simple())
      : winston.format.combine(redact(), winston.format.timestamp(), winston.format.json());
  return winston.createLogger({
    level: config.logLevel,
    format,
    defaultMeta,
    transports: [new winston.transports.Console({ stderrLevels: [] })],
  });
}

/** A logger that drops everything (tests that do not assert on logs). */
export function createSilentLogger(): Logger {
  return winston.createLogger({ silent: true, transports: [new winston.transports.Console({ silent: true })] });
}
