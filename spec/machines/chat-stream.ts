import {
  applyBy,
  effected,
  transitionsOf,
  type Guard,
  type Instant,
  type MachineTable,
  type Move,
  type Transition,
} from './machine.ts';

/**
 * The event grammar of the chat stream (§6) as a pure machine over the stream's lines: the
 * model the reference's writer and the golden streams are held to. The conformance suites do
 * not import it (they carry their own checker in suites/harness, written from §6 apart from
 * this one); the golden streams of fixtures/streams are judged by both, so a mistake in either
 * shows as a disagreement there.
 *
 * Which rule a step breaks is named by clause id: `must` clauses of §6, and the reference's
 * decisions where §6 is silent (`events.text.bracketing`, `events.tool-call.answered`).
 */

/** Where the stream stands between two lines. */
export type StreamPhase = 'between' | 'in-text';

export interface ChatStreamState {
  readonly phase: StreamPhase;
  /** Tools started by a tool-call and not yet ended by a tool-result, in call order. */
  readonly pending: readonly string[];
  /** Events read so far (lines that are events, whatever their type). */
  readonly events: number;
  /** Lines read that are not events (§6: they carry none). */
  readonly ignored: number;
  readonly ended: boolean;
}

export type ChatStreamCommand =
  { readonly type: 'line'; readonly line: string } | { readonly type: 'end' };

/** What a line turned out to be. */
export type LineKind =
  | 'not-an-event'
  | 'text-start'
  | 'text-delta'
  | 'text-end'
  | 'tool-call'
  | 'tool-result'
  | 'other-type';

export interface Violation {
  /** The clause the step breaks. */
  readonly clause:
    | 'events.stream.line-format'
    | 'events.stream.type-field'
    | 'events.text-delta'
    | 'events.tool-call'
    | 'events.tool-result'
    | 'events.text.closed'
    | 'events.text.bracketing'
    | 'events.tool-result.after-call'
    | 'events.tool-call.answered';
  readonly message: string;
}

export type StreamStep =
  | {
      readonly ok: true;
      readonly state: ChatStreamState;
      readonly kind: LineKind | 'end';
      /** The event of an event line, as parsed. */
      readonly event?: Readonly<Record<string, unknown>>;
    }
  | { readonly ok: false; readonly violation: Violation };

export const START: ChatStreamState = {
  phase: 'between',
  pending: [],
  events: 0,
  ignored: 0,
  ended: false,
};

/** §6: only a line beginning with exactly `data: ` is an event. */
export const EVENT_PREFIX = 'data: ';

/** Splits a stream's text into lines at CRLF, CR or LF (the last, unterminated line kept). */
export function splitLines(text: string): string[] {
  const lines = text.split(/\r\n|\r|\n/);
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

const broken = (clause: Violation['clause'], message: string): Violation => ({ clause, message });

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The event of a line, or the rule it breaks; `null` for a line that is not an event. */
export function parseLine(
  line: string,
):
  | { readonly event: Readonly<Record<string, unknown>>; readonly type: string }
  | { readonly violation: Violation }
  | null {
  if (!line.startsWith(EVENT_PREFIX)) return null;
  let value: unknown;
  try {
    value = JSON.parse(line.slice(EVENT_PREFIX.length));
  } catch {
    return { violation: { clause: 'events.stream.line-format', message: 'not JSON' } };
  }
  if (!isRecord(value))
    return { violation: { clause: 'events.stream.line-format', message: 'not a JSON object' } };
  if (typeof value['type'] !== 'string')
    return { violation: { clause: 'events.stream.type-field', message: 'no string type' } };
  return { event: value, type: value['type'] };
}

const KNOWN: ReadonlySet<string> = new Set([
  'text-start',
  'text-delta',
  'text-end',
  'tool-call',
  'tool-result',
]);

type Event = Readonly<Record<string, unknown>>;

/**
 * A line as the table reads it: its kind, with the event and the tool it names; or the end of
 * the stream. An event whose payload lacks what its type needs never gets this far.
 */
type Read =
  | { readonly type: 'not-an-event' }
  | { readonly type: 'other-type'; readonly event: Event }
  | { readonly type: 'text-start'; readonly event: Event }
  | { readonly type: 'text-delta'; readonly event: Event }
  | { readonly type: 'text-end'; readonly event: Event }
  | { readonly type: 'tool-call'; readonly event: Event; readonly tool: string }
  | { readonly type: 'tool-result'; readonly event: Event; readonly tool: string }
  | { readonly type: 'end' };

/** What the line is, or the rule its own text breaks (§6 line format and payloads). */
function read(command: ChatStreamCommand): Read | Violation {
  if (command.type === 'end') return { type: 'end' };
  const parsed = parseLine(command.line);
  if (parsed === null) return { type: 'not-an-event' };
  if ('violation' in parsed) return parsed.violation;
  const { event, type } = parsed;
  const payload = isRecord(event['payload']) ? event['payload'] : undefined;
  switch (KNOWN.has(type) ? (type as LineKind) : 'other-type') {
    case 'text-delta':
      if (typeof payload?.['text'] !== 'string')
        return broken('events.text-delta', 'payload.text is not a string');
      return { type: 'text-delta', event };
    case 'tool-call': {
      const tool = payload?.['toolName'];
      if (typeof tool !== 'string')
        return broken('events.tool-call', 'payload.toolName is not a string');
      return { type: 'tool-call', event, tool };
    }
    case 'tool-result': {
      const tool = payload?.['toolName'];
      if (typeof tool !== 'string' || !('result' in (payload ?? {})))
        return broken('events.tool-result', 'payload.toolName or payload.result is missing');
      return { type: 'tool-result', event, tool };
    }
    case 'text-start':
      return { type: 'text-start', event };
    case 'text-end':
      return { type: 'text-end', event };
    default:
      return { type: 'other-type', event };
  }
}

type Seen = { readonly kind: LineKind | 'end'; readonly event?: Event };

/** An event line counts as an event whatever its type. */
const counted = (state: ChatStreamState): ChatStreamState => ({
  ...state,
  events: state.events + 1,
});

type Step<K extends Read['type']> = Move<
  ChatStreamState,
  Extract<Read, { readonly type: K }>,
  Seen,
  Violation
>;

/** The phase the stream is in: the subject of every move but the end. */
const phaseOf = (state: ChatStreamState): string => state.phase;

/** A refusal of the stream: while `refuses` holds, the line breaks `clause`. */
const rule = <C>(
  name: string,
  refuses: (state: ChatStreamState, command: C) => boolean,
  clause: Violation['clause'],
  reason: (state: ChatStreamState, command: C) => string,
): Guard<ChatStreamState, C, Violation> => ({
  name,
  refuses,
  error: (state, command) => broken(clause, reason(state, command)),
});

const noMessageOpen = rule<unknown>(
  'no-message-open',
  (state) => state.phase === 'in-text',
  'events.text.bracketing',
  () => 'a message opened inside another',
);

const messageOpen = (clause: Violation['clause'], reason: string) =>
  rule<unknown>(
    'message-open',
    (state) => state.phase !== 'in-text',
    clause,
    () => reason,
  );

/** A move that reads no state beyond the phase and leaves it as it was. */
const skipped = <K extends 'not-an-event' | 'other-type' | 'tool-call' | 'tool-result'>(
  move: Pick<Step<K>, 'rows' | 'effect'> & Partial<Pick<Step<K>, 'guards'>>,
): Step<K> => ({ subject: phaseOf, landed: phaseOf, ...move });

/**
 * The stream's table of moves (the command is the kind of line read, or `end`): the rules
 * that refuse a line, and what it does to the stream (applyChatStream runs them; the reports
 * draw the rows).
 */
const CHAT_STREAM: MachineTable<
  ChatStreamState,
  Read,
  { readonly [K in Read['type']]: Seen },
  Violation
> = {
  'not-an-event': skipped({
    rows: [{ from: 'any', to: 'same', note: 'skipped', section: '6' }],
    effect: (state) => effected({ ...state, ignored: state.ignored + 1 }, { kind: 'not-an-event' }),
  }),
  'other-type': skipped({
    rows: [{ from: 'any', to: 'same', note: 'skipped by clients', section: '6' }],
    effect: (state, { event }) => effected(counted(state), { kind: 'other-type', event }),
  }),
  'text-start': {
    subject: phaseOf,
    // Messages do not nest (decision).
    guards: [noMessageOpen],
    rows: [{ from: 'between', to: 'in-text', section: '6' }],
    effect: (state, { event }) =>
      effected({ ...counted(state), phase: 'in-text' }, { kind: 'text-start', event }),
    landed: phaseOf,
  },
  'text-delta': {
    subject: phaseOf,
    // No text outside a message (decision).
    guards: [messageOpen('events.text.bracketing', 'text outside a message')],
    rows: [{ from: 'in-text', to: 'in-text', section: '6' }],
    effect: (state, { event }) => effected(counted(state), { kind: 'text-delta', event }),
    landed: phaseOf,
  },
  'text-end': {
    subject: phaseOf,
    guards: [messageOpen('events.text.closed', 'text-end with no message open')],
    rows: [{ from: 'in-text', to: 'between', section: '6' }],
    effect: (state, { event }) =>
      effected({ ...counted(state), phase: 'between' }, { kind: 'text-end', event }),
    landed: phaseOf,
  },
  'tool-call': skipped({
    rows: [{ from: 'any', to: 'same', note: 'the tool is pending', section: '6' }],
    effect: (state, { event, tool }) =>
      effected(
        { ...counted(state), pending: [...state.pending, tool] },
        { kind: 'tool-call', event },
      ),
  }),
  'tool-result': skipped({
    guards: [
      rule(
        'call-pending',
        (state, { tool }) => !state.pending.includes(tool),
        'events.tool-result.after-call',
        (_, { tool }) => `a result of ${tool} that no call started`,
      ),
    ],
    rows: [
      {
        from: 'any',
        to: 'same',
        note: 'ends the earliest pending call of that tool',
        section: '6',
      },
    ],
    effect: (state, { event, tool }) => {
      const at = state.pending.indexOf(tool);
      const pending = state.pending.filter((_, i) => i !== at);
      return effected({ ...counted(state), pending }, { kind: 'tool-result', event });
    },
  }),
  end: {
    subject: phaseOf,
    guards: [
      rule<unknown>(
        'message-closed',
        (state) => state.phase === 'in-text',
        'events.text.closed',
        () => 'the stream ended inside a message',
      ),
      rule<unknown>(
        'no-tool-pending',
        (state) => state.pending.length > 0,
        'events.tool-call.answered',
        (state) => `the stream ended with ${state.pending.join(', ')} never answered`,
      ),
    ],
    rows: [{ from: 'between', to: 'ended', section: '6' }],
    effect: (state) => effected({ ...state, ended: true }, { kind: 'end' }),
    landed: (state) => (state.ended ? 'ended' : state.phase),
  },
};

/** The table of moves (the `command` is the kind of line read, or `end`). */
export const chatStreamTransitions: readonly Transition[] = transitionsOf(CHAT_STREAM);

/** §6 puts no time on a stream: the moves never read the instant they are given. */
const UNTIMED: Instant = 0;

export function applyChatStream(state: ChatStreamState, command: ChatStreamCommand): StreamStep {
  if (state.ended)
    return {
      ok: false,
      violation: broken('events.stream.line-format', 'the stream already ended'),
    };
  const line = read(command);
  if ('clause' in line) return { ok: false, violation: line };
  const applied = applyBy(CHAT_STREAM, state, line, UNTIMED);
  return applied.ok
    ? { ok: true, state: applied.state, ...applied.result }
    : { ok: false, violation: applied.error };
}

export interface StreamVerdict {
  /** The events in order (every event line, known types or not). */
  readonly events: readonly Readonly<Record<string, unknown>>[];
  /** The first rule broken, with the index of the line (or `end`). */
  readonly violation?: Violation & { readonly at: number | 'end' };
  readonly ignored: number;
}

/** Runs a whole stream text through the machine, stopping at the first rule broken. */
export function checkStreamText(text: string): StreamVerdict {
  let state = START;
  const events: Readonly<Record<string, unknown>>[] = [];
  const lines = splitLines(text);
  for (const [at, line] of lines.entries()) {
    const step = applyChatStream(state, { type: 'line', line });
    if (!step.ok) return { events, violation: { ...step.violation, at }, ignored: state.ignored };
    if (step.event !== undefined) events.push(step.event);
    state = step.state;
  }
  const end = applyChatStream(state, { type: 'end' });
  if (!end.ok)
    return { events, violation: { ...end.violation, at: 'end' }, ignored: state.ignored };
  return { events, ignored: state.ignored };
}
