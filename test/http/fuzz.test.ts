import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { createSilentLogger } from '@research/observability';
import { closeServer, listen } from '@research/runtime';
import { startFakeSite, type FakeSite } from '../crawler/support';
import { silentWav, startFakeAudio, type FakeAudio } from '../fakes/fake-audio';
import { TINY_PNG, startFakeVision, type FakeVision } from '../fakes/fake-vision';
import { startFakeWikipediaSearch, type FakeWikipediaSearch } from '../fakes/fake-wikipedia-search';
import { rawExchange, type RawExchange } from '../support/raw-http';
import { buildMountedApp, type MountedTestApp } from './mounted/support';
import { PASSWORD, insertRunResults, insertTestRun } from './support';

// Reproducible: the same 2,000 requests on every run; FUZZ_SEED tries another sequence.
const SEED = Number(process.env.FUZZ_SEED ?? 20261125);
const REQUESTS = 2_000;

/** mulberry32: a small seeded generator, so a failure names the request that reproduces it. */
function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const chance = (p: number) => next() < p;
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  return { next, pick, chance, int };
}
type Generator = ReturnType<typeof generator>;

/** A request as bytes on the wire: everything a client could send, well-formed or not. */
interface WireRequest {
  label: string;
  method: string;
  path: string;
  headers: Array<[string, string]>;
  body?: Buffer;
  chunked?: boolean;
  /** Sent as they are instead of being assembled from the fields above. */
  raw?: Buffer;
}

const ODD_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800x',
  '\udfff\ud800',
  '🙂'.repeat(600),
  'x'.repeat(2001),
  '%00',
  '../../etc/passwd',
  "'; drop table research_runs; --",
  '<script>alert(1)</script>',
  '\u202e\u0645\u0631\u062d\u0628\u0627',
  'quick',
  'null',
  'ä'.repeat(300),
  'http://169.254.169.254/latest/meta-data',
  'ftp://example.org/x',
  'http://127.0.0.1:1/closed',
  'javascript:alert(1)',
];

const ODD_VALUES: unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1e308,
  3.14,
  Number.MAX_SAFE_INTEGER + 2,
  [],
  {},
  [null],
  [[['deep']]],
  { nested: { deeper: [1, 2, 3] } },
  ...ODD_STRINGS,
  Array.from({ length: 25 }, (_, i) => `q${i}`),
];

const ODD_IDS = [
  'x',
  '%00',
  '%E0%A4%A',
  '%25',
  '..',
  '%2e%2e',
  '00000000-0000-0000-0000-000000000000',
  '{00000000-0000-4000-8000-000000000000}',
  'a'.repeat(3000),
  '%F0%9F%99%82',
  '%ED%A0%80',
  '1%27%20or%20%271%27%3D%271',
];

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'PROPFIND', 'TRACE'];

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'application/json; charset=klingon',
  'application/merge-patch+json',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'multipart/form-data; boundary=',
  'multipart/form-data; boundary=nothing-here',
  '*/*',
  '',
  'application/json, text/plain',
];

interface Fixtures {
  keys: { owner: string; other: string; admin: string };
  /** A completed run of the owner with sources and claims (the run-analysis routes' target). */
  analysisRun: string;
  /** Runs the delete and protection routes may change. */
  disposableRuns: string[];
  pageUrl: string;
  wavUrl: string;
}

function json(value: unknown): Buffer {
  return Buffer.from(JSON.stringify(value), 'utf8');
}

function multipart(boundary: string, parts: Array<{ name: string; filename?: string; type?: string; data: Buffer }>) {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename ? `; filename="${part.filename}"` : ''}`;
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: ${disposition}\r\n` +
          (part.type ? `Content-Type: ${part.type}\r\n` : '') +
          '\r\n',
      ),
      part.data,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

/** Valid requests of every route, the seeds every mutation starts from. */
function templates(f: Fixtures, g: Generator): Array<() => WireRequest> {
  const keyed = (key = f.keys.owner): Array<[string, string]> => [['X-API-Key', key]];
  const withJson = (key?: string): Array<[string, string]> => [...keyed(key), ['Content-Type', 'application/json']];
  const runId = () => g.pick([f.analysisRun, ...f.disposableRuns]);
  const disposable = () => g.pick(f.disposableRuns);
  return [
    () => ({ label: 'health', method: 'GET', path: '/health', headers: [] }),
    () => ({ label: 'ready', method: 'GET', path: '/ready', headers: [] }),
    () => ({ label: 'providers', method: 'GET', path: '/providers', headers: [] }),
    () => ({ label: 'metrics', method: 'GET', path: '/metrics', headers: [] }),
    () => ({
      label: 'create run',
      method: 'POST',
      path: '/v1/research',
      headers: withJson(),
      body: json({ query: 'Wie wirkt Homeoffice auf die Produktivität?', depth: 'quick', language: 'de' }),
    }),
    () => ({
      label: 'create run with extra queries',
      method: 'POST',
      path: '/v1/research',
      headers: withJson(),
      body: json({ query: 'Homeoffice', extra_queries: ['Telearbeit Studie'], depth: g.pick(['quick', 'deep']) }),
    }),
    () => ({
      label: 'list runs',
      method: 'GET',
      path: `/v1/research?limit=${g.int(1, 100)}&offset=${g.int(0, 5)}`,
      headers: keyed(),
    }),
    () => ({
      label: 'read run',
      method: 'GET',
      path: `/v1/research/${runId()}${g.pick(['', '/status', '/sources', '/claims', '/evidence', '/plan', '/report'])}`,
      headers: keyed(g.pick([f.keys.owner, f.keys.other])),
    }),
    () => ({
      label: 'delete run',
      method: 'DELETE',
      path: `/v1/research/${disposable()}`,
      headers: withJson(),
      body: json({ password: g.pick([PASSWORD, null, 'wrong password']) }),
    }),
    () => ({
      label: 'protect run',
      method: 'PUT',
      path: `/v1/research/${disposable()}/deletion-protection`,
      headers: withJson(),
      body: json({ password: PASSWORD, current_password: g.pick([PASSWORD, null]) }),
    }),
    () => ({
      label: 'unprotect run',
      method: 'DELETE',
      path: `/v1/research/${disposable()}/deletion-protection`,
      headers: withJson(),
      body: json({ password: PASSWORD }),
    }),
    () => ({ label: 'admin deleted', method: 'GET', path: '/v1/admin/research/deleted', headers: keyed(f.keys.admin) }),
    () => ({
      label: 'admin purge',
      method: 'DELETE',
      path: `/v1/admin/research/${disposable()}`,
      headers: keyed(f.keys.admin),
    }),
    () => ({
      label: 'search',
      method: 'POST',
      path: '/search',
      headers: withJson(),
      body: json({ query: 'Homeoffice Produktivität', language: 'de', max_results: g.int(1, 20) }),
    }),
    () => ({
      label: 'planner',
      method: 'POST',
      path: '/research/planner',
      headers: withJson(),
      body: json({ query: 'Wie wirkt Homeoffice?', depth: 'quick', extra_queries: ['Telearbeit'] }),
    }),
    () => ({
      label: 'crawler fetch',
      method: 'POST',
      path: '/crawler/fetch',
      headers: withJson(),
      body: json({ url: f.pageUrl, max_chars: g.int(1, 5000) }),
    }),
    () => ({
      label: 'crawler batch',
      method: 'POST',
      path: '/crawler/fetch/batch',
      headers: withJson(),
      body: json({ urls: [f.pageUrl, `${f.pageUrl}?b`], language: 'en' }),
    }),
    () => ({
      label: 'validate url',
      method: 'POST',
      path: '/crawler/validate-url',
      headers: withJson(),
      body: json({ url: g.pick([f.pageUrl, 'http://169.254.169.254/']) }),
    }),
    () => ({
      label: 'claims from text',
      method: 'POST',
      path: `/research/${f.analysisRun}/claims`,
      headers: withJson(),
      body: json({
        text: 'Eine Studie von 2021 ergab 13 % mehr Produktivität im Homeoffice. Andere Studien fanden keinen Effekt.',
        url: `https://example.org/studie-${g.int(1, 50)}`,
      }),
    }),
    () => ({
      label: 'analysis reads',
      method: 'GET',
      path: `/research/${f.analysisRun}/${g.pick(['claims', 'clusters', 'claim-relations', 'evidence', 'synthesis'])}`,
      headers: keyed(),
    }),
    () => ({
      label: 'analysis steps',
      method: 'POST',
      path: `/research/${f.analysisRun}/${g.pick(['cluster-claims', 'evidence', 'synthesis'])}`,
      headers: withJson(),
      body: json({}),
    }),
    () => ({
      label: 'vision',
      method: 'POST',
      path: '/vision/analyze',
      headers: withJson(),
      body: json({ image_base64: TINY_PNG.toString('base64'), prompt: 'What does it show?', language: 'en' }),
    }),
    () => ({
      label: 'audio url',
      method: 'POST',
      path: '/audio/transcribe',
      headers: withJson(),
      body: json({ audio_url: f.wavUrl, language: 'de' }),
    }),
    () => {
      const boundary = `fuzz${g.int(1000, 9999)}`;
      return {
        label: 'audio upload',
        method: 'POST',
        path: '/audio/transcribe',
        headers: [...keyed(), ['Content-Type', `multipart/form-data; boundary=${boundary}`]],
        body: multipart(boundary, [
          { name: 'file', filename: 'talk.wav', type: 'audio/wav', data: silentWav(1) },
          { name: 'language', data: Buffer.from('de') },
        ]),
      };
    },
  ];
}

function setHeader(req: WireRequest, name: string, value: string | undefined): void {
  req.headers = req.headers.filter(([n]) => n.toLowerCase() !== name.toLowerCase());
  if (value !== undefined) req.headers.push([name, value]);
}

/** One JSON value of the body replaced, removed or joined by another (types, odd strings, prototypes). */
function mutateJsonBody(req: WireRequest, g: Generator): void {
  let value: unknown;
  try {
    value = JSON.parse(req.body?.toString('utf8') ?? '');
  } catch {
    value = {};
  }
  if (!value || typeof value !== 'object' || Array.isArray(value) || g.chance(0.1)) {
    req.body = json(g.pick(ODD_VALUES));
    return;
  }
  const body = value as Record<string, unknown>;
  const keys = Object.keys(body);
  const r = g.next();
  if (r < 0.45 && keys.length) body[g.pick(keys)] = g.pick(ODD_VALUES);
  else if (r < 0.6 && keys.length) delete body[g.pick(keys)];
  else if (r < 0.75 && keys.length) {
    const key = g.pick(keys);
    const old = body[key];
    body[key] = Array.isArray(old) ? [...old, g.pick(ODD_VALUES)] : [old];
  } else
    body[g.pick(['unknown', 'padding', 'constructor', 'toString', 'depth', 'query', 'language'])] = g.pick(ODD_VALUES);
  let text = JSON.stringify(body);
  // JSON.stringify never writes a __proto__ key; a client can.
  if (g.chance(0.15)) text = text.replace(/^\{/, '{"__proto__":{"isAdmin":true},');
  req.body = Buffer.from(text, 'utf8');
}

/** The body's bytes made wrong: truncated, not JSON, nested too deep, in another encoding, compressed. */
function mutateBodyBytes(req: WireRequest, g: Generator): void {
  const body = req.body ?? Buffer.alloc(0);
  const text = body.toString('utf8');
  switch (g.int(0, 11)) {
    case 0:
      req.body = body.subarray(0, g.int(0, body.length));
      break;
    case 1:
      req.body = Buffer.from(g.pick(['{', '{"query":', '[', 'nul\u0000l', '{"a":1}{"b":2}', 'undefined', "{'a':1}"]));
      break;
    case 2:
      req.body = Buffer.from('['.repeat(g.int(10, 100_000)));
      break;
    case 3:
      req.body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), body]);
      break;
    case 4:
      req.body = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
      break;
    case 5:
      req.body = Buffer.from(text, 'latin1');
      break;
    case 6:
      req.body = Buffer.concat([body.subarray(0, Math.max(0, body.length - 3)), Buffer.from([0xc3, 0x28, 0xa0])]);
      break;
    case 7:
      req.body = zlib.gzipSync(body);
      setHeader(req, 'Content-Encoding', 'gzip');
      break;
    case 8:
      setHeader(req, 'Content-Encoding', g.pick(['gzip', 'deflate', 'br', 'identity', 'bogus', 'gzip, gzip']));
      break;
    case 9:
      req.body = Buffer.from(text.replace(/"[^"]*"/, '"1e400"').replace(/:\s*\d+/, ':1e400'));
      break;
    case 10:
      req.body = Buffer.alloc(0);
      break;
    default:
      req.body = Buffer.from(`{"query": "${'\\ud800'.repeat(g.int(1, 3))}x", "extra_queries": ["\\udc00"]}`);
  }
}

function mutatePath(req: WireRequest, g: Generator): void {
  const [path, query = ''] = req.path.split('?') as [string, string?];
  const segments = path.split('/');
  switch (g.int(0, 8)) {
    case 0:
      req.path = `${path}/${query ? `?${query}` : ''}`;
      break;
    case 1:
      req.path = req.path.toUpperCase();
      break;
    case 2:
      segments[g.int(1, segments.length - 1)] = g.pick(ODD_IDS);
      req.path = segments.join('/') + (query ? `?${query}` : '');
      break;
    case 3:
      req.path = `${path}?${g.pick([
        'limit=-1&offset=abc',
        'limit=1&limit=2',
        'limit[a]=1',
        '__proto__[isAdmin]=true',
        'q=%ZZ',
        `limit=${'9'.repeat(400)}`,
        'offset=%00',
        'a'.repeat(4000),
      ])}`;
      break;
    case 4:
      req.path = `/${g.pick(['', '/', '%2e%2e/', '../', ';', '%00/'])}${path.slice(1)}`;
      break;
    case 5:
      req.path = `${path}/${g.pick(['x', 'status', '..', '%2F', 'ä'])}`;
      break;
    case 6:
      req.path = g.pick(['*', 'http://127.0.0.1/health', '/%', '/\u00e4', `/${'a'.repeat(8000)}`]);
      break;
    case 7:
      req.path = g.pick(['/v1', '/v1/', '/v1/research/', '/research', '/crawler', '/vision', '/audio', '/docs']);
      break;
    default:
      req.path = path.replace(/\/[^/]*$/, '');
  }
}

function mutateHeaders(req: WireRequest, g: Generator, f: Fixtures): void {
  switch (g.int(0, 9)) {
    case 0:
      setHeader(req, 'X-API-Key', undefined);
      break;
    case 1:
      setHeader(
        req,
        'X-API-Key',
        g.pick(['rsk_bogus', `${f.keys.owner}x`, ` ${f.keys.owner} `, 'rsk_'.padEnd(8000, 'a'), f.keys.other, '']),
      );
      break;
    case 2:
      setHeader(req, 'Content-Type', g.pick(CONTENT_TYPES));
      break;
    case 3:
      setHeader(req, 'X-Request-ID', g.pick(['ok-id', '', 'a'.repeat(200), '../../x', 'id with spaces', 'ünï']));
      break;
    case 4:
      setHeader(req, 'Origin', g.pick(['http://localhost:3000', 'http://evil.example', 'null']));
      if (g.chance(0.5)) setHeader(req, 'Access-Control-Request-Method', g.pick(['POST', 'DELETE', 'BREW']));
      break;
    case 5:
      req.chunked = true;
      break;
    case 6:
      setHeader(req, 'Expect', g.pick(['100-continue', 'something-else']));
      break;
    case 7:
      req.headers.push(['X-API-Key', g.pick([f.keys.owner, f.keys.admin, 'rsk_bogus'])]);
      break;
    case 8:
      setHeader(req, 'Accept', g.pick(['text/html', '*/*', 'application/xml', '']));
      break;
    default:
      setHeader(req, 'Content-Type', `multipart/form-data${g.pick(['', '; boundary=x', '; boundary="a b"'])}`);
  }
}

/** Bytes no HTTP library would send: broken request lines and headers, lying lengths, garbage. */
function malformed(g: Generator, f: Fixtures): WireRequest {
  const key = `X-API-Key: ${f.keys.owner}\r\n`;
  const options: Array<[string, string]> = [
    ['request line garbage', 'GARBAGE\r\n\r\n'],
    ['unknown method', 'BREW /health HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['bad version', 'GET /health HTTP/7.0\r\nHost: x\r\n\r\n'],
    ['space in a header name', `GET /v1/research HTTP/1.1\r\nHost: x\r\nX API Key: 1\r\n${key}\r\n`],
    ['colon-less header', 'GET /health HTTP/1.1\r\nHost: x\r\nNoColonHere\r\n\r\n'],
    ['control character in a header', 'GET /health HTTP/1.1\r\nHost: x\r\nX-A: a\u0007b\r\n\r\n'],
    ['Content-Length: -1', `POST /v1/research HTTP/1.1\r\nHost: x\r\n${key}Content-Length: -1\r\n\r\n`],
    ['Content-Length: abc', `POST /search HTTP/1.1\r\nHost: x\r\n${key}Content-Length: abc\r\n\r\n`],
    [
      'Content-Length with Transfer-Encoding',
      `POST /v1/research HTTP/1.1\r\nHost: x\r\n${key}Content-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
    ],
    [
      'two Content-Lengths',
      `POST /v1/research HTTP/1.1\r\nHost: x\r\n${key}Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}`,
    ],
    ['unknown Transfer-Encoding', `POST /v1/research HTTP/1.1\r\nHost: x\r\n${key}Transfer-Encoding: gzip\r\n\r\n`],
    [
      'bad chunk size',
      `POST /v1/research HTTP/1.1\r\nHost: x\r\n${key}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n{}\r\n0\r\n\r\n`,
    ],
    ['20 KB of headers', `GET /health HTTP/1.1\r\nHost: x\r\nX-Pad: ${'p'.repeat(20_000)}\r\n\r\n`],
    ['a 20 KB URL', `GET /v1/research?x=${'u'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n${key}\r\n`],
    ['bare LF line ends', `GET /health HTTP/1.1\nHost: x\n\n`],
    ['NUL in the path', 'GET /he\u0000alth HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['HTTP/1.0 without Host', 'GET /health HTTP/1.0\r\n\r\n'],
    [
      'declared 99,999,999,999 bytes',
      `POST /v1/research HTTP/1.1\r\nHost: x\r\n${key}Content-Type: application/json\r\nContent-Length: 99999999999\r\n\r\n{`,
    ],
    ['random bytes', ''],
  ];
  const [label, text] = g.pick(options);
  const raw = text
    ? Buffer.from(text, 'latin1')
    : Buffer.from(Array.from({ length: g.int(1, 300) }, () => g.int(0, 255)));
  return { label: `malformed: ${label}`, method: 'RAW', path: '', headers: [], raw };
}

function toWire(req: WireRequest): Buffer {
  if (req.raw) return req.raw;
  const body = req.body ?? Buffer.alloc(0);
  const lines = [`${req.method} ${req.path} HTTP/1.1`, 'Host: 127.0.0.1', 'Connection: close'];
  for (const [name, value] of req.headers) lines.push(`${name}: ${value}`);
  let payload = body;
  if (req.chunked) {
    lines.push('Transfer-Encoding: chunked');
    const half = Math.floor(body.length / 2);
    const chunk = (b: Buffer) =>
      b.length ? [Buffer.from(`${b.length.toString(16)}\r\n`), b, Buffer.from('\r\n')] : [];
    payload = Buffer.concat([
      ...chunk(body.subarray(0, half)),
      ...chunk(body.subarray(half)),
      Buffer.from('0\r\n\r\n'),
    ]);
  } else if (req.body !== undefined || req.method === 'POST' || req.method === 'PUT') {
    lines.push(`Content-Length: ${body.length}`);
  }
  // Header values are latin1 on the wire; anything else would be the client's own encoding error.
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), payload]);
}

function fuzzedRequest(g: Generator, f: Fixtures, seeds: Array<() => WireRequest>): WireRequest {
  if (g.chance(0.12)) return malformed(g, f);
  const req = g.pick(seeds)();
  const mutations = g.int(0, 3);
  const applied: string[] = [];
  for (let i = 0; i < mutations; i++) {
    const kind = g.pick(['method', 'path', 'headers', 'json', 'json', 'bytes'] as const);
    applied.push(kind);
    if (kind === 'method') req.method = g.pick(METHODS);
    else if (kind === 'path') mutatePath(req, g);
    else if (kind === 'headers') mutateHeaders(req, g, f);
    else if (kind === 'json') mutateJsonBody(req, g);
    else mutateBodyBytes(req, g);
  }
  req.label = `${req.label}${applied.length ? ` +${applied.join('+')}` : ''}`;
  return req;
}

/** Why an answer breaks the rule (no 5xx; every error a JSON `{detail: string}`), or undefined. */
function problemWith(req: WireRequest, exchange: RawExchange): string | undefined {
  const res = exchange.response;
  if (!res) return 'no response';
  if (res.status >= 500) return `status ${res.status}: ${res.body.slice(0, 200)}`;
  // A HEAD answer has no body to carry the detail.
  if (res.status < 400 || req.method === 'HEAD') return undefined;
  if (!/^application\/json/.test(res.headers['content-type'] ?? '')) {
    return `status ${res.status} without a JSON body (${res.headers['content-type'] ?? 'no type'}): ${res.body.slice(0, 120)}`;
  }
  try {
    const body = JSON.parse(res.body) as { detail?: unknown };
    if (typeof body.detail !== 'string')
      return `status ${res.status} without a string detail: ${res.body.slice(0, 120)}`;
  } catch {
    return `status ${res.status} with malformed JSON: ${res.body.slice(0, 120)}`;
  }
  return undefined;
}

describe(`${REQUESTS} fuzzed requests against a real API server (seed ${SEED})`, () => {
  let m: MountedTestApp;
  let server: Server;
  let port: number;
  let wiki: FakeWikipediaSearch;
  let vision: FakeVision;
  let audio: FakeAudio;
  let site: FakeSite;
  let fixtures: Fixtures;

  beforeAll(async () => {
    [wiki, vision, audio] = await Promise.all([
      startFakeWikipediaSearch({
        documents: { de: [{ url: '', title: 'Telearbeit', text: 'Telearbeit und Homeoffice: Produktivität.' }] },
      }),
      startFakeVision(),
      startFakeAudio(),
    ]);
    site = await startFakeSite((req, res) => {
      if (req.url === '/robots.txt') return void res.writeHead(404).end();
      if (req.url?.startsWith('/talk.wav')) {
        return void res.writeHead(200, { 'content-type': 'audio/wav' }).end(silentWav(1));
      }
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(
          '<html><head><title>Studie</title></head><body><main><p>Eine Studie von 2021 ergab 13 % mehr Produktivität im Homeoffice.</p></main></body></html>',
        );
    });
    m = await buildMountedApp('fuzz', {
      env: {
        PORT: '0',
        HOST: '127.0.0.1',
        // Short deadlines: a request that lies about its length is cut off quickly.
        HTTP_HEADERS_TIMEOUT_MS: '1000',
        HTTP_REQUEST_TIMEOUT_MS: '1500',
        WIKIPEDIA_API_URL: wiki.apiUrlTemplate,
        SEARCH_MAX_RETRIES: '0',
        SEARCH_TIMEOUT_MS: '2000',
        CRAWLER_ALLOW_PRIVATE_NETWORKS: 'true',
        CRAWLER_TIMEOUT_MS: '2000',
        VISION_BASE_URL: vision.baseUrl,
        VISION_MODEL: 'fake-vision',
        AUDIO_BASE_URL: audio.baseUrl,
        AUDIO_MODEL: 'fake-whisper',
        AUDIO_MAX_BYTES: '65536',
      },
    });
    const { t } = m;
    const hash = await t.passwords.hash(PASSWORD);
    const analysisRun = await insertTestRun(t.db, { owner: t.owner.id, state: 'completed' });
    await insertRunResults(t.db, analysisRun, { sources: 3 });
    const disposableRuns = [
      await insertTestRun(t.db, { owner: t.owner.id, state: 'completed' }),
      await insertTestRun(t.db, { owner: t.owner.id, passwordHash: hash }),
      await insertTestRun(t.db, { owner: t.other.id }),
      await insertTestRun(t.db, { owner: null, retention: false }),
      await insertTestRun(t.db, { owner: t.owner.id, hidden: true }),
    ];
    fixtures = {
      keys: { owner: t.owner.key, other: t.other.key, admin: t.admin.key },
      analysisRun,
      disposableRuns,
      pageUrl: `${site.origin}/studie.html`,
      wavUrl: `${site.origin}/talk.wav`,
    };
    server = await listen(m.app, t.ctx.config, createSilentLogger());
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await closeServer(server);
    await m.close();
    await Promise.all([wiki.close(), vision.close(), audio.close(), site.close()]);
  });

  it('answers none with a 5xx, and every error with a JSON {"detail": string}', async () => {
    const g = generator(SEED);
    const seeds = templates(fixtures, g);
    const statuses = new Map<number, number>();
    const labels = new Set<string>();
    const failures: string[] = [];
    const started = Date.now();
    for (let i = 0; i < REQUESTS; i++) {
      const req = fuzzedRequest(g, fixtures, seeds);
      const exchange = await rawExchange(port, [toWire(req)], { timeoutMs: 10_000, noBody: req.method === 'HEAD' });
      const status = exchange.response?.status ?? 0;
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      labels.add(req.label.split(' +')[0]!);
      const problem = problemWith(req, exchange);
      if (problem) {
        const head = toWire(req).subarray(0, 300).toString('latin1').replace(/\r\n/g, '\\r\\n');
        failures.push(`#${i} ${req.label}: ${problem}\n    ${head}`);
      }
    }
    const summary = [...statuses.entries()].sort(([a], [b]) => a - b).map(([s, n]) => `${s}: ${n}`);
    process.stdout.write(
      `fuzz seed ${SEED}: ${REQUESTS} requests in ${Date.now() - started} ms; statuses ${summary.join(', ')}\n`,
    );
    expect(failures).toEqual([]);
    // The requests reached the handlers of every route, not only the parser and the validators.
    expect([...labels].filter((l) => !l.startsWith('malformed')).length).toBe(seeds.length);
    for (const status of [200, 400, 401, 404, 413, 422]) expect(statuses.get(status) ?? 0).toBeGreaterThan(0);
  });
});
