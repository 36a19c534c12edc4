import type { Answer, Transform } from './transform.ts';

/**
 * The event-stream entries of the latitude catalogue (spec/latitude.ts): answers of the chat
 * endpoint (§4.15) rewritten into other streams §6 allows. §6 fixes little: events are
 * `data: {json}` lines separated by newlines, each JSON object has a `type`, the five named
 * types mean what its table says, other types may occur and are ignored, and lines not
 * beginning with `data: ` carry no event. Every line the reference wrote for an event is kept
 * byte for byte unless the transform is about that very event (the deltas of a message), so the
 * generateChart tool-result always arrives intact.
 */

// §4.15: the one endpoint that streams.
const CHAT_PATH = /^\/v1\/api\/project-agents\/[^/?#]+\/chat\/?(?:[?#]|$)/;

/** Whether an answer is a chat event stream, the only answers these transforms touch. */
export function isChatStream(answer: Answer): boolean {
  const type = (answer.headers['content-type'] ?? '').trim().toLowerCase();
  return (
    answer.request.origin === 'api' &&
    answer.request.method.toUpperCase() === 'POST' &&
    CHAT_PATH.test(answer.request.url) &&
    type.startsWith('text/event-stream')
  );
}

export type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const PREFIX = 'data: ';

/** A run of lines up to a blank line (an SSE message's lines); the last may lack its blank. */
interface Block {
  lines: string[];
  terminated: boolean;
}

/** A stream as lines grouped in blocks, with how it wrote its line ends. */
interface Stream {
  blocks: Block[];
  eol: string;
  endsWithEol: boolean;
}

/** One §6 event: the data line at `blocks[block].lines[line]`, with its parsed object. */
export interface Event {
  readonly block: number;
  readonly line: number;
  readonly json: Json;
  readonly type: string;
}

export function parseStream(body: Buffer): Stream {
  const text = new TextDecoder('utf-8').decode(body);
  const eol = /\r\n|\r|\n/.exec(text)?.[0] ?? '\n';
  const lines = text.split(/\r\n|\r|\n/);
  const endsWithEol = text !== '' && lines.at(-1) === '';
  if (endsWithEol || text === '') lines.pop();
  const blocks: Block[] = [];
  let current: string[] = [];
  for (const line of lines) {
    if (line === '') {
      blocks.push({ lines: current, terminated: true });
      current = [];
    } else current.push(line);
  }
  if (current.length > 0) blocks.push({ lines: current, terminated: false });
  return { blocks, eol, endsWithEol };
}

export function writeStream(stream: Stream): Buffer {
  const flat: string[] = [];
  for (const block of stream.blocks) {
    flat.push(...block.lines);
    if (block.terminated) flat.push('');
  }
  const text = flat.join(stream.eol) + (stream.endsWithEol && flat.length > 0 ? stream.eol : '');
  return Buffer.from(text, 'utf-8');
}

export function eventsOf(stream: Stream): Event[] {
  const out: Event[] = [];
  stream.blocks.forEach((b, block) =>
    b.lines.forEach((text, line) => {
      if (!text.startsWith(PREFIX)) return;
      let json: unknown;
      try {
        json = JSON.parse(text.slice(PREFIX.length));
      } catch {
        return;
      }
      if (isObject(json) && typeof json['type'] === 'string')
        out.push({ block, line, json, type: json['type'] });
    }),
  );
  return out;
}

export const dataLine = (event: Json) => `${PREFIX}${JSON.stringify(event)}`;

/** Blocks of one event each, ready to be spliced between blocks. */
export const eventBlocks = (events: readonly Json[]): Block[] =>
  events.map((e) => ({ lines: [dataLine(e)], terminated: true }));

/**
 * Inserts blocks after block `at` (-1: before the first). A block left without its blank line
 * (a stream whose last line ends it) gets one, so the insertion cannot join its message.
 */
export function insertAfter(stream: Stream, at: number, blocks: readonly Block[]): void {
  if (blocks.length === 0) return;
  const before = stream.blocks[at];
  if (before !== undefined && !before.terminated) {
    before.terminated = true;
    stream.endsWithEol = true;
  }
  stream.blocks.splice(at + 1, 0, ...blocks);
}

/** One text message: the events from its text-start to its text-end (indexes into events). */
interface TextMessage {
  readonly start: number;
  readonly end: number;
  readonly deltas: readonly number[];
}

/** Text messages at the outer level (a message begun inside another is left alone). */
export function messagesOf(events: readonly Event[]): TextMessage[] {
  const out: TextMessage[] = [];
  let start = -1;
  let deltas: number[] = [];
  events.forEach((e, i) => {
    if (e.type === 'text-start' && start === -1) {
      start = i;
      deltas = [];
    } else if (e.type === 'text-delta' && start !== -1) deltas.push(i);
    else if (e.type === 'text-end' && start !== -1) {
      out.push({ start, end: i, deltas });
      start = -1;
    }
  });
  return out;
}

/** The body cut into `count` non-empty pieces at random byte positions (when it has pieces). */
function cutLike(body: Buffer, count: number, random: () => number): Buffer[] {
  const positions = Array.from({ length: Math.max(0, body.length - 1) }, (_v, i) => i + 1);
  return piecesAt(body, new Set(sample(positions, count - 1, random)));
}

/** `count` distinct items (all when fewer), whatever `random` answers (even a constant). */
export function sample<T>(items: readonly T[], count: number, random: () => number): T[] {
  const pool = [...items];
  const n = Math.min(Math.max(0, count), pool.length);
  for (let i = 0; i < n; i++) {
    const j = i + Math.floor(random() * (pool.length - i));
    [pool[i], pool[j]] = [pool[j]!, pool[i]!];
  }
  return pool.slice(0, n);
}

function piecesAt(body: Buffer, cuts: ReadonlySet<number>): Buffer[] {
  const sorted = [...cuts].filter((c) => c > 0 && c < body.length).sort((a, b) => a - b);
  const out: Buffer[] = [];
  let from = 0;
  for (const cut of sorted) {
    out.push(body.subarray(from, cut));
    from = cut;
  }
  out.push(body.subarray(from));
  return out;
}

/**
 * The answer with a rewritten stream. A body a transform before this one had already cut into
 * pieces is cut again into as many, so the order the proxy applies the entries in does not
 * undo sse.rechunked.
 */
export function withStream(answer: Answer, stream: Stream, random: () => number): Answer {
  const body = writeStream(stream);
  const { pieces, ...rest } = answer;
  const headers = { ...answer.headers };
  if (headers['content-length'] !== undefined) headers['content-length'] = String(body.length);
  return {
    ...rest,
    headers,
    body,
    ...(pieces !== undefined && pieces.length > 1
      ? { pieces: cutLike(body, pieces.length, random) }
      : {}),
  };
}

const pick = <T>(items: readonly T[], random: () => number): T =>
  items[Math.floor(random() * items.length)] as T;

// ---------------------------------------------------------------------------------------------
// sse.rechunked

/** Byte positions where a cut is awkward for a reader: the ones sse.rechunked makes sure of. */
function awkwardCuts(body: Buffer, random: () => number): Set<number> {
  const cuts = new Set<number>([1]);
  // Inside `data: ` (after `d`, after `data`, between `:` and the space), a few lines apart.
  const prefix = Buffer.from(PREFIX);
  let inPrefix = 0;
  for (let at = body.indexOf(prefix); at !== -1; at = body.indexOf(prefix, at + 1)) {
    if (inPrefix < 3 || random() < 0.2) cuts.add(at + [1, 4, 5][inPrefix % 3]!);
    inPrefix += 1;
  }
  // Inside multi-byte UTF-8 characters: after a lead byte.
  let multi = 0;
  for (let i = 0; i < body.length; i++) {
    if ((body[i]! & 0xc0) === 0xc0 && (multi < 4 || random() < 0.2)) {
      cuts.add(i + 1);
      multi += 1;
    }
  }
  // Between the CR and LF of a line end, and right before a line end.
  const crlf = body.indexOf('\r\n');
  if (crlf !== -1) cuts.add(crlf + 1);
  const lf = body.indexOf('\n');
  if (lf > 0) cuts.add(lf);
  return cuts;
}

const rechunked: Transform = {
  id: 'sse.rechunked',
  apply(answer, random) {
    if (!isChatStream(answer) || answer.body.length < 2) return undefined;
    const { body } = answer;
    const cuts = awkwardCuts(body, random);
    // And arbitrary places, about one every 40 bytes, so a long result arrives in many writes.
    const extra = Math.min(160, Math.ceil(body.length / 40));
    for (let i = 0; i < extra; i++) cuts.add(1 + Math.floor(random() * (body.length - 1)));
    return { ...answer, pieces: piecesAt(body, cuts) };
  },
};

// ---------------------------------------------------------------------------------------------
// sse.non-data-lines

/** Comment lines a server may send: keep-alives, an empty one, prose. */
const COMMENTS = [': keep-alive', ':', ': ping', ':this line is a comment and carries no event'];

const nonDataLines: Transform = {
  id: 'sse.non-data-lines',
  apply(answer, random) {
    if (!isChatStream(answer)) return undefined;
    const stream = parseStream(answer.body);
    const events = eventsOf(stream);
    if (events.length === 0) return undefined;
    const withEvent = new Set(events.map((e) => e.block));
    let id = 0;
    let first = true;
    const blocks: Block[] = [];
    // A comment opens the stream, as keep-alive-minded servers often do.
    blocks.push({ lines: [COMMENTS[0]!], terminated: true });
    stream.blocks.forEach((block, index) => {
      if (!withEvent.has(index)) {
        blocks.push(block);
        return;
      }
      // Fields of the same SSE message as the event: `event: message` names the type an
      // EventSource client dispatches anyway, `id:` sets its last event id. Neither begins with
      // `data: `, so §6 reads no event in them. The first event block gets every kind of line.
      const before: string[] = [];
      const after: string[] = [];
      if (first || random() < 0.5) before.push('event: message');
      id += 1;
      if (first || random() < 0.7) (random() < 0.5 ? before : after).push(`id: ${id}`);
      if (first || random() < 0.2) before.unshift(pick(COMMENTS, random));
      first = false;
      blocks.push({ lines: [...before, ...block.lines, ...after], terminated: block.terminated });
      // Between messages: a comment on its own now and then.
      if (block.terminated && random() < 0.3)
        blocks.push({ lines: [pick(COMMENTS, random)], terminated: true });
    });
    stream.blocks = blocks;
    return withStream(answer, stream, random);
  },
};

// ---------------------------------------------------------------------------------------------
// sse.other-types

/**
 * Events of types §6 does not name, as streaming agent frameworks send them: reasoning, step and
 * progress notes, metadata, tool-input announcements, another finish marker. Some carry
 * `payload.text` or `payload.toolName`, so a client that reads those members without looking at
 * the type shows. Their values hold no digits: nothing that could pass for a row's amount.
 */
const SCATTERED: readonly Json[] = [
  { type: 'reasoning-start', payload: { id: 'reasoning-a' } },
  { type: 'reasoning-delta', payload: { id: 'reasoning-a', text: 'Reading the question. ' } },
  { type: 'reasoning-end', payload: { id: 'reasoning-a' } },
  { type: 'data-progress', payload: { stage: 'planning' } },
  { type: 'message-metadata', payload: { messageMetadata: { source: 'latitude' } } },
  { type: 'data-note', payload: 'working' },
  { type: 'step-progress' },
];
/** Inside a text message: not text, whatever its payload says. */
const INSIDE_MESSAGE: readonly Json[] = [
  { type: 'reasoning-delta', payload: { text: 'not part of the answer' } },
  { type: 'data-progress', payload: { stage: 'writing' } },
];
/** Another finish marker, before the stream's last event. */
const FINISH_MARKER: Json = { type: 'step-finish', payload: { finishReason: 'stop' } };

const otherTypes: Transform = {
  id: 'sse.other-types',
  apply(answer, random) {
    if (!isChatStream(answer)) return undefined;
    const stream = parseStream(answer.body);
    const events = eventsOf(stream);
    if (events.length === 0) return undefined;
    /** What to insert after each event's block (-1: before the first event). */
    const after = new Map<number, Json[]>();
    const add = (i: number, event: Json) => after.set(i, [...(after.get(i) ?? []), event]);
    add(-1, { type: 'data-progress', payload: { stage: 'received' } });
    for (const m of messagesOf(events)) {
      // §6 names no place other types may not take, so inside a message too.
      add(m.start, pick(INSIDE_MESSAGE, random));
      const [first] = m.deltas;
      if (m.deltas.length > 1 && first !== undefined) add(first, pick(INSIDE_MESSAGE, random));
    }
    events.forEach((e, i) => {
      // A tool's input announced before its call, naming the tool (type tool-input-start).
      if (e.type === 'tool-call' && isObject(e.json['payload'])) {
        const toolName = e.json['payload']['toolName'];
        if (typeof toolName === 'string')
          add(i - 1, { type: 'tool-input-start', payload: { toolName } });
      }
      if (i < events.length - 1 && random() < 0.35) add(i, pick(SCATTERED, random));
    });
    add(events.length - 2, FINISH_MARKER);
    // Insert from the end so that block indexes stay right.
    const at = [...after.keys()].sort((a, b) => b - a);
    for (const i of at) {
      const block = i === -1 ? -1 : events[i]!.block;
      // Before the first event: before its block.
      insertAfter(stream, i === -1 ? events[0]!.block - 1 : block, eventBlocks(after.get(i)!));
    }
    return withStream(answer, stream, random);
  },
};

// ---------------------------------------------------------------------------------------------
// sse.second-message

/** The words of the second message: no digits, no names, nothing a row could hold. */
export const SECOND_MESSAGE =
  'Ask me for another chart, or for a breakdown of this one, whenever you like.';

const secondMessage: Transform = {
  id: 'sse.second-message',
  apply(answer, random) {
    if (!isChatStream(answer)) return undefined;
    const stream = parseStream(answer.body);
    const events = eventsOf(stream);
    const [message] = messagesOf(events);
    if (message === undefined) return undefined;
    const start = events[message.start]!.json;
    const end = events[message.end]!.json;
    // An id the first message's events carry (not in the reference's), renewed for the second.
    const payload = start['payload'];
    const id = isObject(payload) && typeof payload['id'] === 'string' ? `${payload['id']}-2` : '';
    const withId = (json: Json): Json =>
      id === '' ? json : { ...json, payload: { ...(json['payload'] as Json), id } };
    const words = SECOND_MESSAGE.match(/\s*\S+\s*/g) ?? [SECOND_MESSAGE];
    const deltas: Json[] = [];
    for (let i = 0; i < words.length;) {
      const n = 1 + Math.floor(random() * 3);
      deltas.push(
        withId({ type: 'text-delta', payload: { text: words.slice(i, i + n).join('') } }),
      );
      i += n;
    }
    insertAfter(
      stream,
      events[message.end]!.block,
      eventBlocks([withId(start), ...deltas, withId(end)]),
    );
    return withStream(answer, stream, random);
  },
};

// ---------------------------------------------------------------------------------------------
// sse.deltas-recut

/** Cut positions (in code points) of texts that join to one whole. */
function cutsOf(texts: readonly string[]): Set<number> {
  const out = new Set<number>();
  let at = 0;
  for (const t of texts.slice(0, -1)) {
    at += [...t].length;
    out.add(at);
  }
  return out;
}

/** New cuts of a text of `length` code points: at least one the old cuts lack. */
function newCuts(length: number, old: ReadonlySet<number>, random: () => number): number[] {
  const free: number[] = [];
  for (let i = 1; i < length; i++) if (!old.has(i)) free.push(i);
  if (free.length === 0) return [...old].filter((c) => c !== [...old][0]);
  const count = 1 + Math.floor(random() * Math.min(free.length, 2 + old.size * 2));
  const cuts = new Set<number>(sample(free, count, random));
  // Sometimes a cut of the old ones stays too.
  for (const c of old) if (random() < 0.3) cuts.add(c);
  return [...cuts].sort((a, b) => a - b);
}

const deltasRecut: Transform = {
  id: 'sse.deltas-recut',
  apply(answer, random) {
    if (!isChatStream(answer)) return undefined;
    const stream = parseStream(answer.body);
    const events = eventsOf(stream);
    let changed = false;
    // From the last message back, so that block indexes of earlier ones stay right.
    for (const m of messagesOf(events).reverse()) {
      const deltas = m.deltas.map((i) => events[i]!);
      const texts = deltas.map((d) =>
        isObject(d.json['payload']) ? d.json['payload']['text'] : undefined,
      );
      if (deltas.length === 0 || !texts.every((t): t is string => typeof t === 'string')) continue;
      const whole = [...texts.join('')];
      if (whole.length < 2) continue;
      const old = cutsOf(texts);
      const cuts = [0, ...newCuts(whole.length, old, random), whole.length];
      const pieces = cuts.slice(1).map((to, k) => whole.slice(cuts[k], to).join(''));
      // The first delta's other members (an id, say) ride on every new delta.
      const first = deltas[0]!;
      const payload = first.json['payload'] as Json;
      const lines = pieces.map((text) =>
        dataLine({ ...first.json, payload: { ...payload, text } }),
      );
      // Old deltas out (from the last), the new ones where the first one was.
      for (const d of [...deltas].reverse()) {
        const block = stream.blocks[d.block]!;
        if (d === first) {
          block.lines.splice(d.line, 1, lines[0]!);
          insertAfter(
            stream,
            d.block,
            lines.slice(1).map((line) => ({ lines: [line], terminated: true })),
          );
        } else {
          block.lines.splice(d.line, 1);
          if (block.lines.length === 0) stream.blocks.splice(d.block, 1);
        }
      }
      changed = true;
    }
    return changed ? withStream(answer, stream, random) : undefined;
  },
};

/** In catalogue order; sse.rechunked last would cut the final stream, but any order holds. */
export const sseTransforms: Transform[] = [
  rechunked,
  nonDataLines,
  otherTypes,
  secondMessage,
  deltasRecut,
];
