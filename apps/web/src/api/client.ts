/**
 * The API as the page calls it: same origin (the API serves the page; `npm run dev:web` proxies), the key
 * in `X-API-Key` on every call and never in a URL. Every failure is an ApiError carrying the API's own
 * `detail`, so the page shows errors as the API words them.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
  ) {
    super(detail);
    this.name = 'ApiError';
  }
}

/** The text a failed call shows: the API's `detail`, or what went wrong on the way. */
export function errorText(error: unknown): string {
  if (error instanceof ApiError) return error.detail;
  if (error instanceof DOMException && error.name === 'AbortError') return 'The request was stopped.';
  return 'The service could not be reached. Check your connection and try again.';
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

async function detailOf(response: Response): Promise<string> {
  try {
    const body = (await response.json()) as { detail?: unknown };
    if (typeof body.detail === 'string') return body.detail;
  } catch {
    // Not JSON (a proxy's error page): the status says enough.
  }
  return `The service answered ${response.status} ${response.statusText}`.trim();
}

export interface RequestOptions {
  body?: unknown;
  signal?: AbortSignal;
  accept?: string;
  /** Further request headers (a stream's `Last-Event-ID`); they never replace the key or Accept. */
  headers?: Record<string, string>;
  /** A multipart body (an upload) instead of JSON; the browser writes its Content-Type with the boundary. */
  form?: FormData;
}

export class ApiClient {
  constructor(
    private readonly key: string,
    /** Called with every 401, so the page can sign out of a key that stopped working. */
    private readonly onUnauthorized: (detail: string) => void = () => {},
    private readonly baseUrl = '',
  ) {}

  /** The raw response of a call that succeeded (2xx); an ApiError otherwise. */
  async fetch(method: Method, path: string, options: RequestOptions = {}): Promise<Response> {
    const headers: Record<string, string> = {
      ...options.headers,
      'X-API-Key': this.key,
      Accept: options.accept ?? 'application/json',
    };
    if (options.body !== undefined) headers['Content-Type'] = 'application/json';
    const response = await fetch(this.baseUrl + path, {
      method,
      headers,
      body: options.form ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
      signal: options.signal,
      cache: 'no-store',
      credentials: 'omit',
    });
    if (response.ok) return response;
    const detail = await detailOf(response);
    if (response.status === 401) this.onUnauthorized(detail);
    throw new ApiError(response.status, detail);
  }

  async json<T>(method: Method, path: string, options: RequestOptions = {}): Promise<T> {
    const response = await this.fetch(method, path, options);
    return (await response.json()) as T;
  }

  get<T>(path: string, signal?: AbortSignal): Promise<T> {
    return this.json<T>('GET', path, { signal });
  }
}

/** `/v1/research/{id}` and below, with the id escaped. */
export function runPath(id: string, rest = ''): string {
  return `/v1/research/${encodeURIComponent(id)}${rest}`;
}
