/**
 * A browser-like HTTP client over fetch for tests against the real server: keeps its cookies and
 * sends the CSRF token and the Ajax header the web client sends (src/web/lib/http.ts).
 */
export class HttpClient {
  private cookies = new Map<string, string>();
  csrfToken = '';

  baseUrl: string;
  constructor(baseUrl: string) {
    this.baseUrl = baseUrl;
  }

  /** Opens a visitor session as a page load does (GET /api/session) and keeps its CSRF token. */
  async start(): Promise<this> {
    const res = await this.request('GET', '/api/session');
    if (res.status !== 200) throw new Error(`GET /api/session answered ${res.status}`);
    this.csrfToken = (res.body as { csrfToken: string }).csrfToken;
    return this;
  }

  /** Signs in and switches to the new session's CSRF token. @throws unless the answer is 200 */
  async login(email: string, password: string): Promise<this> {
    const res = await this.request('POST', '/login', { email, password });
    if (res.status !== 200) throw new Error(`sign-in as ${email} answered ${res.status}: ${JSON.stringify(res.body)}`);
    this.csrfToken = (res.body as { csrfToken: string }).csrfToken;
    return this;
  }

  /**
   * Sends one request; JSON in, JSON (or text) out.
   * @throws the fetch error when no answer arrives (connection refused or reset)
   */
  async request(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }> {
    const headers: Record<string, string> = { 'x-requested-with': 'XMLHttpRequest' };
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    if (this.csrfToken) headers['x-csrf-token'] = this.csrfToken;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(60_000),
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair.indexOf('=');
      this.cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON: keep the text
    }
    return { status: res.status, body: parsed };
  }
}

/** POSTs JSON to the gateway simulator's tokenizer like Accept.js in the browser; the opaque data it answers. */
export async function tokenizeCard(
  baseUrl: string,
  gateway: { api_login_id: string; client_key: string },
  id: string,
): Promise<{ dataDescriptor: string; dataValue: string }> {
  const res = await fetch(`${baseUrl}/gateway-simulator/tokenize`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    signal: AbortSignal.timeout(60_000),
    body: JSON.stringify({
      securePaymentContainerRequest: {
        merchantAuthentication: { name: gateway.api_login_id, clientKey: gateway.client_key },
        data: {
          type: 'TOKEN',
          id,
          token: {
            cardNumber: '4111111111111111',
            expirationDate: `12${new Date().getFullYear() + 1}`,
            cardCode: '123',
          },
        },
      },
    }),
  });
  const answer = JSON.parse((await res.text()).replace(/^\uFEFF/, ''));
  if (answer?.messages?.resultCode !== 'Ok') throw new Error(`the tokenizer refused: ${JSON.stringify(answer)}`);
  return answer.opaqueData;
}
