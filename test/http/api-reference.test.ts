import fs from 'node:fs';
import path from 'node:path';
import { buildOpenApiDocument } from '@research/http';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
const REFERENCE = path.resolve(__dirname, '..', '..', 'docs', 'api.md');

/** `METHOD /path` of every route the OpenAPI document describes. */
function openApiRoutes(): string[] {
  const { paths } = buildOpenApiDocument();
  return Object.entries(paths ?? {}).flatMap(([route, item]) =>
    METHODS.filter((m) => item && m in item).map((m) => `${m.toUpperCase()} ${route}`),
  );
}

/** `METHOD /path` of every route docs/api.md gives a heading to (a heading may name several). */
function documentedRoutes(markdown: string): string[] {
  return markdown
    .split('\n')
    .filter((line) => /^#{1,6}\s/.test(line))
    .flatMap((line) => [...line.matchAll(/`(GET|POST|PUT|PATCH|DELETE) (\/[^`\s]*)`/g)].map((m) => `${m[1]} ${m[2]}`));
}

describe('API reference (docs/api.md) against the OpenAPI document', () => {
  const documented = documentedRoutes(fs.readFileSync(REFERENCE, 'utf8'));
  const described = openApiRoutes();

  it('documents every route of the OpenAPI document', () => {
    expect(described.filter((r) => !documented.includes(r))).toEqual([]);
  });

  it('documents no route the OpenAPI document lacks, and each only once', () => {
    expect(documented.filter((r) => !described.includes(r))).toEqual([]);
    expect(documented.filter((r, i) => documented.indexOf(r) !== i)).toEqual([]);
  });

  it('reads routes from headings only, each named as `METHOD /path`', () => {
    const parsed = documentedRoutes(
      [
        '## Runs',
        '### `GET /v1/x/{id}` and `GET /v1/x/{id}/status`',
        'Prose naming `POST /v1/elsewhere` is no heading.',
        '#### `DELETE /v1/x/{id}`',
      ].join('\n'),
    );
    expect(parsed).toEqual(['GET /v1/x/{id}', 'GET /v1/x/{id}/status', 'DELETE /v1/x/{id}']);
  });
});
