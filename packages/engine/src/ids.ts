import crypto from 'node:crypto';

/**
 * A UUID derived from its parts (SHA-256, formatted as a version-5-style UUID): a step that is re-run
 * after a crash produces the same ids for the same claims.
 */
export function stableId(...parts: string[]): string {
  const hex = crypto.createHash('sha256').update(parts.join('\u0000')).digest('hex');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
