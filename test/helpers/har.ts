// HAR 1.2 files as a browser or a proxy exports them, built for tests: entries with their URL,
// request body and response body (as JSON text, as other text, or base64-encoded).

type Body = unknown;

const text = (body: Body) => (typeof body === 'string' ? body : JSON.stringify(body));

/** One entry: `request` posted (or not) to `url`, answered with `response` (omitted when undefined). */
export function harEntry(
  method: string,
  url: string,
  request: Body,
  response?: Body,
  options: { base64?: boolean; mimeType?: string } = {},
) {
  const responseText = response === undefined ? undefined : text(response);
  return {
    startedDateTime: '2026-01-21T10:15:30.000Z',
    time: 12,
    request: {
      method,
      url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: [{ name: 'content-type', value: 'application/json' }],
      queryString: [...new URL(url).searchParams].map(([name, value]) => ({ name, value })),
      ...(request === undefined ? {} : { postData: { mimeType: 'application/json', text: text(request) } }),
      headersSize: -1,
      bodySize: request === undefined ? 0 : text(request).length,
    },
    response: {
      status: 200,
      statusText: 'OK',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: [],
      content:
        responseText === undefined
          ? { size: 0, mimeType: 'x-unknown' }
          : {
              size: responseText.length,
              mimeType: options.mimeType ?? 'application/json;charset=UTF-8',
              ...(options.base64
                ? { text: Buffer.from(responseText).toString('base64'), encoding: 'base64' }
                : { text: responseText }),
            },
      redirectURL: '',
      headersSize: -1,
      bodySize: -1,
    },
    cache: {},
    timings: { send: 0, wait: 10, receive: 2 },
  };
}

/** The text of a HAR file holding `entries` (indented like a browser's export when `indent` is given). */
export function harOf(entries: unknown[], indent?: number): string {
  return JSON.stringify({ log: { version: '1.2', creator: { name: 'test', version: '1' }, entries } }, null, indent);
}
