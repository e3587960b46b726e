import { generateApiKey, parseApiKey, readPresentedKey, verifyApiKey } from '@research/auth';
import type { ApiKeyCredentialRow } from '@research/database';

// The checks every keyed request goes through, whichever statement read the key row.
describe('API key checks', () => {
  const generated = generateApiKey();
  const { id, secret } = parseApiKey(generated.key)!;
  const row = (overrides: Partial<ApiKeyCredentialRow> = {}): ApiKeyCredentialRow => ({
    id,
    user_id: 'user-1',
    salt: generated.salt,
    key_hash: generated.hash,
    expires_at: null,
    revoked_at: null,
    username: 'alice',
    is_admin: false,
    ...overrides,
  });
  const now = Date.UTC(2026, 10, 21, 12, 0, 0);
  // One character changed, whatever the last character of this random secret is.
  const wrongSecret = `${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`;

  it('reads the id and secret of a presented key, or refuses it before any lookup', () => {
    expect(readPresentedKey(`  ${generated.key} `)).toEqual({ id, secret });
    expect(() => readPresentedKey(undefined)).toThrow('Missing API key (send it in the X-API-Key header).');
    expect(() => readPresentedKey('')).toThrow('Missing API key (send it in the X-API-Key header).');
    expect(() => readPresentedKey('rsk_short_secret')).toThrow('Invalid API key.');
  });

  it('accepts the right secret and names the caller', () => {
    expect(verifyApiKey(row({ is_admin: true }), secret, now)).toEqual({
      userId: 'user-1',
      username: 'alice',
      isAdmin: true,
      keyId: id,
    });
  });

  it.each([
    ['an unknown key id', () => verifyApiKey(undefined, secret, now), 'Invalid API key.'],
    ['a wrong secret', () => verifyApiKey(row(), wrongSecret, now), 'Invalid API key.'],
    [
      'a revoked key (even with the right secret)',
      () => verifyApiKey(row({ revoked_at: new Date(now - 1) }), secret, now),
      'API key has been revoked.',
    ],
    [
      'a key expiring exactly now',
      () => verifyApiKey(row({ expires_at: new Date(now) }), secret, now),
      'API key has expired.',
    ],
    [
      'a wrong secret for a revoked key (the secret is checked first)',
      () => verifyApiKey(row({ revoked_at: new Date(now - 1) }), wrongSecret, now),
      'Invalid API key.',
    ],
  ])('refuses %s with 401', (_label, check, message) => {
    expect(check).toThrow(expect.objectContaining({ code: 'unauthenticated', status: 401, message }));
  });

  it('accepts a key that expires later', () => {
    expect(verifyApiKey(row({ expires_at: new Date(now + 1) }), secret, now).keyId).toBe(id);
  });
});
