// The bounds of a request a server of the package reads (the sandbox, the proxy): how large its body
// may be and how long its client may take to send it. Each server takes its own value as an option;
// these are the defaults both document.

/** Request bodies larger than this are refused (64 KiB: a large pay request is about 2 KiB). */
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024;
/** How long a client may take to send a request (Node's own default is 300 s). */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
