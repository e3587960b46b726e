import http from 'node:http';
import axios from 'axios';
import { isDependencyUnavailable, networkFailureKind } from '@research/core';
import { listenOnLoopback, type LoopbackServer } from '../support/loopback';
import { freePort } from '../support/processes';

/** What a real axios request to `url` throws. */
async function failureOf(url: string, timeoutMs = 5000): Promise<unknown> {
  try {
    await axios.get(url, { timeout: timeoutMs, proxy: false });
  } catch (error) {
    return error;
  }
  throw new Error(`GET ${url} did not fail`);
}

describe('networkFailureKind', () => {
  const servers: LoopbackServer[] = [];
  afterAll(() => Promise.all(servers.map((server) => server.close())));

  it('calls a refused connection a connection failure, one the API and workers wait out', async () => {
    const error = await failureOf(`http://127.0.0.1:${await freePort()}/`);
    expect(networkFailureKind(error)).toBe('connection');
    expect(isDependencyUnavailable(error)).toBe(true);
  });

  it('calls a connection the server drops mid-request a connection failure', async () => {
    const dropping = await listenOnLoopback(http.createServer((req) => req.socket.destroy()));
    servers.push(dropping);
    expect(networkFailureKind(await failureOf(dropping.origin))).toBe('connection');
  });

  it('calls a server that never answers within the timeout a timeout', async () => {
    const silent = await listenOnLoopback(http.createServer(() => undefined));
    servers.push(silent);
    expect(networkFailureKind(await failureOf(silent.origin, 200))).toBe('timeout');
  });

  it('finds the socket error wrapped as a cause or inside an AggregateError (both addresses refused)', async () => {
    const refused = await failureOf(`http://127.0.0.1:${await freePort()}/`);
    expect(networkFailureKind(new Error('query failed', { cause: refused }))).toBe('connection');
    expect(networkFailureKind(new AggregateError([new Error('other'), refused]))).toBe('connection');
  });

  it('is null for errors of the request or of the code, including an HTTP error answer', async () => {
    const answering = await listenOnLoopback(http.createServer((_req, res) => res.writeHead(500).end()));
    servers.push(answering);
    expect(networkFailureKind(await failureOf(answering.origin))).toBeNull();
    expect(networkFailureKind(new TypeError('x is not a function'))).toBeNull();
    expect(networkFailureKind(Object.assign(new Error('syntax error'), { code: '42601' }))).toBeNull();
    expect(networkFailureKind(Object.assign(new Error('odd'), { code: 'constructor' }))).toBeNull();
    expect(networkFailureKind('ECONNREFUSED')).toBeNull();
    expect(networkFailureKind(null)).toBeNull();
  });

  it('leaves database-specific outages (SQLSTATE 08006) to isDependencyUnavailable', () => {
    const lost = Object.assign(new Error('connection failure'), { code: '08006' });
    expect(networkFailureKind(lost)).toBeNull();
    expect(isDependencyUnavailable(lost)).toBe(true);
  });
});
