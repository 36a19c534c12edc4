import { createParser, type EventSourceParser } from 'eventsource-parser';

/**
 * The reader of chat streams (§6): `data: {json}` lines separated by newlines, each one event;
 * a line not beginning with `data: ` carries none. Lines are cut here (CRLF, CR or LF, across
 * chunk boundaries, UTF-8 split anywhere) and handed one by one to eventsource-parser, which
 * frames them as Server-Sent Events; so each event comes with its raw line and with the SSE
 * message a standard EventSource client would have seen it in. Where the two readings differ
 * (two `data: ` lines with no empty line between them are two events for §6 but one message
 * for SSE; `data:` without a space is data for SSE but no event for §6) §6 decides, and the
 * SSE view is kept for probes.
 */

/** What one line of the stream is. */
export type LineKind = 'event' | 'blank' | 'comment' | 'not-an-event';

export interface StreamLine {
  readonly index: number;
  readonly text: string;
  readonly kind: LineKind;
}

/** One §6 event: a `data: ` line, with its JSON when it parses. */
export interface ReadEvent {
  /** Index of its line in the stream. */
  readonly line: number;
  /** The whole line as received. */
  readonly raw: string;
  /** The parsed JSON (absent when `error` is set). */
  readonly json?: unknown;
  /** Why the line's content is not JSON. */
  readonly error?: string;
  /** Index of the SSE message (blank-line framed) the line belongs to. */
  readonly message: number;
}

/** One message as an EventSource client sees it (data lines joined by newlines). */
export interface SseMessage {
  readonly index: number;
  readonly data: string;
  readonly event?: string;
  /** The lines it was framed from (indexes into `lines`). */
  readonly lines: readonly number[];
}

export interface ReadStream {
  readonly lines: readonly StreamLine[];
  readonly events: readonly ReadEvent[];
  readonly messages: readonly SseMessage[];
  /** Field lines the SSE parser did not know (`garbage`, `foo: bar`). */
  readonly unknownFields: number;
}

const PREFIX = 'data: ';

function kindOf(line: string): LineKind {
  if (line.startsWith(PREFIX)) return 'event';
  if (line === '') return 'blank';
  if (line.startsWith(':')) return 'comment';
  return 'not-an-event';
}

/** Incremental reader: push chunks as they arrive, then `end()`. */
export class SseReader {
  private readonly decoder = new TextDecoder('utf-8');
  private readonly parser: EventSourceParser;
  private pending = '';
  /** A chunk ended in CR: a LF opening the next chunk belongs to the same line break. */
  private afterCr = false;
  private readonly lines: StreamLine[] = [];
  private readonly events: ReadEvent[] = [];
  private readonly messages: SseMessage[] = [];
  /** Lines of the SSE message being framed. */
  private framing: number[] = [];
  private unknownFields = 0;
  private ended = false;

  constructor() {
    this.parser = createParser({
      onEvent: (message) => {
        this.messages.push({
          index: this.messages.length,
          data: message.data,
          ...(message.event === undefined ? {} : { event: message.event }),
          lines: this.framing,
        });
      },
      onError: () => {
        this.unknownFields += 1;
      },
    });
  }

  /** Feeds a chunk; answers the §6 events completed by it. */
  push(chunk: string | Uint8Array): ReadEvent[] {
    if (this.ended) throw new Error('the stream already ended');
    let text = typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true });
    if (this.afterCr && text.startsWith('\n')) text = text.slice(1);
    this.afterCr = false;
    const before = this.events.length;
    this.pending += text;
    for (;;) {
      const m = /\r\n|\r|\n/.exec(this.pending);
      if (m === null) break;
      // A CR at the very end may be the first half of a CRLF split across chunks.
      if (m[0] === '\r' && m.index === this.pending.length - 1) {
        this.line(this.pending.slice(0, m.index));
        this.pending = '';
        this.afterCr = true;
        break;
      }
      this.line(this.pending.slice(0, m.index));
      this.pending = this.pending.slice(m.index + m[0].length);
    }
    return this.events.slice(before);
  }

  /** Ends the stream: a last line without a newline still counts; answers its events. */
  end(): ReadEvent[] {
    const before = this.events.length;
    const rest = this.pending + this.decoder.decode();
    this.pending = '';
    if (rest !== '') this.line(rest);
    // Frames whatever message is still open, as a client does when the connection closes.
    this.parser.feed('\n');
    this.framing = [];
    this.ended = true;
    return this.events.slice(before);
  }

  result(): ReadStream {
    return {
      lines: this.lines,
      events: this.events,
      messages: this.messages,
      unknownFields: this.unknownFields,
    };
  }

  private line(text: string): void {
    const index = this.lines.length;
    const kind = kindOf(text);
    this.lines.push({ index, text, kind });
    if (kind !== 'blank') this.framing = [...this.framing, index];
    // The parser frames one line at a time, so a message it dispatches is exactly the lines
    // since the last blank one.
    this.parser.feed(`${text}\n`);
    if (kind === 'blank') this.framing = [];
    if (kind !== 'event') return;
    const body = text.slice(PREFIX.length);
    let json: unknown;
    let error: string | undefined;
    try {
      json = JSON.parse(body);
    } catch (err) {
      error = err instanceof Error ? err.message : String(err);
    }
    this.events.push({
      line: index,
      raw: text,
      message: this.messages.length,
      ...(error === undefined ? { json } : { error }),
    });
  }
}

/** Reads a whole stream given as chunks (strings or bytes, sync or async). */
export async function readStream(
  chunks: AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>,
): Promise<ReadStream> {
  const reader = new SseReader();
  for await (const chunk of chunks) reader.push(chunk);
  reader.end();
  return reader.result();
}

/** Reads a stream from its text (one chunk). */
export function readStreamText(text: string): ReadStream {
  const reader = new SseReader();
  reader.push(text);
  reader.end();
  return reader.result();
}

/**
 * The §6 events of a fetch/undici response body as they arrive, each with its raw line: for a
 * client that acts on events before the stream ends.
 */
export async function* sseEvents(
  body: AsyncIterable<string | Uint8Array>,
): AsyncGenerator<ReadEvent> {
  const reader = new SseReader();
  for await (const chunk of body) yield* reader.push(chunk);
  yield* reader.end();
}
