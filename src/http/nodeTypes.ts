// node:http's request and response as the package's readers and the webhook receiver's node:http
// adapter use them (an IncomingMessage and a ServerResponse are these): declared here, so that the
// types of the web entries need none of Node's (a Deno or browser app compiles them without
// @types/node).

/** A node:http request, as far as it is read here. */
export interface NodeRequest {
  readonly method?: string | undefined;
  readonly headers: Readonly<Record<string, string | string[] | undefined>> & {
    readonly 'content-type'?: string | undefined;
    readonly 'content-length'?: string | undefined;
  };
  readonly readableEnded: boolean;
  on(event: 'data', listener: (chunk: Uint8Array) => void): unknown;
  on(event: 'end' | 'error' | 'close', listener: () => void): unknown;
  resume(): unknown;
}

/** A node:http response, as far as it is written here. */
export interface NodeResponse {
  readonly headersSent: boolean;
  readonly destroyed: boolean;
  writeHead(status: number, headers: Record<string, string | number>): unknown;
  end(text: string): unknown;
}
