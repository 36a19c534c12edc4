import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { STATUS_CODES } from 'node:http';

// What the proxy's own HTTP layer refuses before relaying anything (framing.empty-body), and
// how it answers a request it cannot relay when that freedom is not taken.

/**
 * A front proxy's limits on what frames a request: the request line and headers, and the
 * request target. A large body is no framing matter: the service answers it (in the §7
 * envelope, as every failed answer), so the proxy relays it.
 */
export const LIMITS = { headers: 16 * 1024, target: 16 * 1024 } as const;

/** The status a front proxy answers a refused request with, by Node's parser error code. */
export function parserStatus(code: string | undefined): number | undefined {
  switch (code) {
    case 'ECONNRESET':
    case 'EPIPE':
      return undefined;
    case 'HPE_HEADER_OVERFLOW':
      return 431;
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return 413;
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return 408;
    default:
      return 400;
  }
}

/**
 * The answer to a refused request on the raw socket: an empty body when the freedom is taken,
 * else an error envelope of §7 (the target's own answer cannot be had: the request never
 * reaches it). Either way the connection closes.
 */
export function rawRefusal(status: number, empty: boolean, cause: string): string {
  const body = empty ? '' : JSON.stringify(envelopeOf(status, cause));
  return (
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\nconnection: close\r\n` +
    (empty ? '' : 'content-type: application/json; charset=utf-8\r\n') +
    `content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
  );
}

export function envelopeOf(status: number, cause: string): unknown {
  return {
    status: 'error',
    error: { message: `the proxy refused the request (${status})`, details: { cause } },
  };
}

/** The response a socket is writing, as Node keeps it on the socket. */
interface InFlight {
  readonly writableFinished: boolean;
  readonly headersSent: boolean;
  /** Its request: when not yet whole, the parser error is about that very request. */
  readonly req?: { readonly complete: boolean };
  once(event: 'finish' | 'close', listener: () => void): unknown;
}

/** What Node hands a `clientError` listener: the socket, with the response in flight if any. */
type ClientSocket = Duplex & { readonly _httpMessage?: InFlight | null };

/**
 * Answers a request Node's parser refused. A whole earlier request's response still being
 * written goes first; when the broken request is the one in flight (its body did not frame),
 * it is answered at once if nothing of its response went out, else the connection just closes.
 */
export function answerClientError(
  err: Error & { code?: string },
  socket: ClientSocket,
  empty: boolean,
): boolean {
  const status = parserStatus(err.code);
  if (status === undefined || !socket.writable) {
    socket.destroy();
    return false;
  }
  const send = () => {
    if (socket.writable) socket.end(rawRefusal(status, empty, err.code ?? 'unknown'));
    else socket.destroy();
  };
  const inFlight = socket._httpMessage;
  if (inFlight === undefined || inFlight === null || inFlight.writableFinished) send();
  else if (inFlight.req?.complete === false) {
    if (inFlight.headersSent) {
      socket.destroy();
      return false;
    }
    send();
  } else {
    inFlight.once('finish', send);
    inFlight.once('close', () => socket.destroy());
  }
  return true;
}

/**
 * A whole request the proxy's own limits refuse (framing.empty-body only): the status, or
 * undefined when it passes. An HTTP/1.1 request without Host is refused too.
 */
export function frontRefusal(req: IncomingMessage): number | undefined {
  const url = req.url ?? '';
  if (url.length > LIMITS.target) return 414;
  let size = `${req.method ?? ''} ${url} HTTP/${req.httpVersion}`.length;
  for (const h of req.rawHeaders) size += h.length + 2;
  if (size > LIMITS.headers) return 431;
  if (req.httpVersion === '1.1' && req.headers.host === undefined) return 400;
  return undefined;
}
