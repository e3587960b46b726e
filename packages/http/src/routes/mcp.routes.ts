import type { Socket } from 'node:net';
import { Router, type Request } from 'express';
import { createResearchApiClient, handleMcpHttpRequest } from '@research/mcp';
import type { AppContext } from '../context';
import { jsonBody } from '../middleware/body-parsing';
import { requireApiKey, xApiKeyOrBearer } from '../middleware/authenticate';
import { requestIdOf } from '../request-scope';

/**
 * The address this API process accepted the request on: the MCP tools call the API there. The
 * connection proves the process listens at it, whatever HOST is (a wildcard, one interface, IPv6), and
 * it is this very process, so the tools need no address handed in at start.
 */
function ownOrigin(socket: Socket): string {
  const address = socket.localAddress ?? '127.0.0.1';
  return `http://${address.includes(':') ? `[${address}]` : address}:${socket.localPort}`;
}

/**
 * `/mcp`: the research tools over MCP's streamable HTTP transport, for a key sent as `Authorization:
 * Bearer <key>` (or `X-API-Key`). Each tool is a call of this process's own API with the caller's key, so
 * every rule of the API (ownership, 404s, quotas, validation) holds for the tools unchanged. Stateless:
 * every POST stands alone, so there is no stream to GET and no session to DELETE.
 */
export function createMcpRouter(ctx: Pick<AppContext, 'db'>): Router {
  const router = Router();
  const key = requireApiKey(ctx, xApiKeyOrBearer);

  router.post('/', key, jsonBody(), async (req: Request, res) => {
    const api = createResearchApiClient({
      baseUrl: ownOrigin(req.socket),
      // requireApiKey found the key here, so it is present.
      apiKey: xApiKeyOrBearer(req)!,
      requestId: requestIdOf(res),
    });
    await handleMcpHttpRequest({ api, req, res, body: req.body });
  });

  router.all('/', key, (_req, res) => {
    res
      .status(405)
      .set('Allow', 'POST')
      .json({ detail: 'This MCP endpoint is stateless: send every message with POST (no stream, no session).' });
  });

  return router;
}
