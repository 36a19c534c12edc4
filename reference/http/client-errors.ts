import type { EventEmitter } from 'node:events';
import { maxHeaderSize } from 'node:http';
import type { Duplex } from 'node:stream';
import { specError, type SpecError } from '../../spec/errors.ts';
import { rawErrorResponse } from './render.ts';

/** Node's HTTP parser errors carry a code (`HPE_...`, `ERR_...`) and, often, a reason. */
interface ParserError extends Error {
  readonly code?: string;
  readonly reason?: string;
}

/**
 * The §7 error for a request Node's HTTP parser refused before any route saw it, or
 * undefined when there is no one left to answer (the peer reset the connection).
 * Clauses limits.header-size, errors.malformed-http and limits.request-timeout.
 */
export function parserRefusal(err: ParserError): SpecError | undefined {
  const code = err.code ?? 'unknown';
  const detail = err.reason === undefined ? '' : `: ${err.reason}`;
  switch (code) {
    case 'EPIPE':
    case 'ECONNRESET':
      return undefined;
    case 'HPE_HEADER_OVERFLOW':
      return specError(
        'HEADERS_TOO_LARGE',
        `the request line and headers are over ${maxHeaderSize} bytes`,
        { limit: maxHeaderSize },
      );
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return specError('PAYLOAD_TOO_LARGE', 'the chunk extensions of the body are too large', {
        cause: code,
      });
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return specError('REQUEST_TIMEOUT', 'the request did not arrive in time');
    default:
      return specError('MALFORMED_REQUEST', `the request is not well-formed HTTP${detail}`, {
        cause: code,
      });
  }
}

/** The response a socket is writing, as Node keeps it on the socket. */
interface InFlight extends EventEmitter {
  readonly writableFinished: boolean;
  readonly headersSent: boolean;
  /** Whether its request arrived whole: else the parser error is about that request. */
  readonly req?: { readonly complete: boolean };
}

/** What Node hands a `clientError` listener: the socket, and the response in flight if any. */
type ClientSocket = Duplex & { readonly _httpMessage?: InFlight | null };

/**
 * Node's `clientError`: answers in the §7 envelope on the raw socket, then closes it (Node's
 * own answer is a bare status line, and Fastify's a body of its own shape). When an earlier,
 * whole request's response is still being written on this connection (a pipelining client),
 * the refusal follows it instead of cutting into it or replacing it; a response already begun
 * for the broken request itself cannot be amended, so the connection just closes.
 */
export function answerClientError(err: ParserError, socket: ClientSocket): void {
  const refusal = parserRefusal(err);
  const answer = () => {
    // A reset socket (no refusal) is already destroyed, and a destroyed one is never writable.
    if (refusal === undefined || socket.destroyed || !socket.writable) socket.destroy();
    else socket.end(rawErrorResponse(refusal), () => socket.destroy());
  };
  const inFlight = socket._httpMessage;
  if (refusal === undefined || inFlight == null || inFlight.writableFinished) return answer();
  if (inFlight.req?.complete === true) inFlight.once('finish', answer);
  else if (!inFlight.headersSent) answer();
  else socket.destroy();
}
