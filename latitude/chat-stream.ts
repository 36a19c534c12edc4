import {
  eventBlocks,
  eventsOf,
  insertAfter,
  isChatStream,
  messagesOf,
  parseStream,
  withStream,
  type Json,
} from './sse.ts';
import type { Answer, Transform } from './transform.ts';

/**
 * The chat-stream entries of the latitude catalogue (spec/latitude.ts) that reach inside
 * events, where latitude/sse.ts keeps every event it does not add byte for byte: members §6
 * and §2.7 do not close, the rows of a chart that sets no order, a tool call left unanswered,
 * text outside a message, and the success status of the stream. Words added hold no digits,
 * so nothing added could pass for a row's value.
 */

const isObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Lower-case letters, `length` of them: ids with no digit in them. */
function letters(length: number, random: () => number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += String.fromCharCode(97 + Math.floor(random() * 26));
  return out;
}

/** The stream's events rewritten one by one (undefined: left as it was). */
function rewriteEvents(
  answer: Answer,
  random: () => number,
  rewrite: (json: Json) => Json | undefined,
): Answer | undefined {
  if (!isChatStream(answer)) return undefined;
  const stream = parseStream(answer.body);
  let changed = false;
  for (const event of eventsOf(stream)) {
    const next = rewrite(event.json);
    if (next === undefined) continue;
    stream.blocks[event.block]!.lines[event.line] = `data: ${JSON.stringify(next)}`;
    changed = true;
  }
  return changed ? withStream(answer, stream, random) : undefined;
}

/** The chat result of a generateChart tool-result event (§6), if this is one. */
function chartResultOf(json: Json): Json | undefined {
  const payload = json['payload'];
  if (json['type'] !== 'tool-result' || !isObject(payload)) return undefined;
  if (payload['toolName'] !== 'generateChart' || !isObject(payload['result'])) return undefined;
  return payload['result'];
}

const withResult = (json: Json, result: Json): Json => ({
  ...json,
  payload: { ...(json['payload'] as Json), result },
});

// ---------------------------------------------------------------------------------------------
// sse.members-extra

/**
 * §6 names an event's `type` and `payload` and the payload members of each named type; §2.7
 * names the chat result's four. Beside them: an id and a role on every event object, a state on
 * each tool payload, a message id on each text-delta payload (text-start and text-end keep no
 * payload: §6 gives them none), and follow-up suggestions and a data source on the chat result
 * (its chartConfig is left as it came, to be passed back as received).
 */
export const sseMembersExtra: Transform = {
  id: 'sse.members-extra',
  apply(answer, random) {
    const message = `msg-${letters(8, random)}`;
    return rewriteEvents(answer, random, (json) => {
      const event: Json = { id: `evt-${letters(10, random)}`, ...json, role: 'assistant' };
      const payload = json['payload'];
      const result = chartResultOf(json);
      if (result !== undefined)
        return withResult(event, {
          ...result,
          followUps: ['Show it as a table', 'Break it down further'],
          dataSource: 'warehouse',
        });
      if (!isObject(payload)) return event;
      if (json['type'] === 'tool-call')
        return { ...event, payload: { ...payload, state: 'input-available' } };
      if (json['type'] === 'tool-result')
        return { ...event, payload: { ...payload, state: 'output-available' } };
      if (json['type'] === 'text-delta')
        return { ...event, payload: { messageId: message, ...payload } };
      return event;
    });
  },
};

// ---------------------------------------------------------------------------------------------
// sse.rows-reordered

/** A last line `ORDER BY ...` (with no LIMIT after it): an order for presentation only. */
const TRAILING_ORDER = /\n\s*ORDER\s+BY\s[^\n]*$/i;

/** The SQL without its trailing ORDER BY, if it ends in one that no LIMIT follows. */
function unordered(sql: unknown): string | undefined {
  if (typeof sql !== 'string') return undefined;
  const m = TRAILING_ORDER.exec(sql);
  if (m === null || /\blimit\b/i.test(m[0])) return undefined;
  return sql.slice(0, m.index);
}

/**
 * §2.7 gives chartData as rows and no order, and a chart need not set one: the agent of this
 * server orders only where a LIMIT makes the order part of the answer. A chart whose order was
 * for presentation only (a trailing ORDER BY with no LIMIT) comes with no orderBy, without that
 * line in its SQL (wherever the stream repeats the SQL), and its rows rotated by one, so that
 * every row of two or more moves.
 */
export const sseRowsReordered: Transform = {
  id: 'sse.rows-reordered',
  apply(answer, random) {
    if (!isChatStream(answer)) return undefined;
    const stream = parseStream(answer.body);
    /** The SQL texts made unordered: old text to new. */
    const sqls = new Map<string, string>();
    for (const event of eventsOf(stream)) {
      const result = chartResultOf(event.json);
      const config = result?.['chartConfig'];
      const data: unknown = result?.['chartData'];
      if (result === undefined || !isObject(config) || !Array.isArray(data) || data.length < 2)
        continue;
      const sql = config['sqlOverride'];
      const without = unordered(sql);
      if (typeof sql === 'string' && without !== undefined) sqls.set(sql, without);
    }
    if (sqls.size === 0) return undefined;
    const swap = (value: unknown): unknown => {
      if (typeof value === 'string') return sqls.get(value) ?? value;
      if (Array.isArray(value)) return value.map(swap);
      if (!isObject(value)) return value;
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, swap(v)]));
    };
    for (const event of eventsOf(stream)) {
      const result = chartResultOf(event.json);
      let json = swap(event.json) as Json;
      const config = result?.['chartConfig'];
      if (result !== undefined && isObject(config) && sqls.has(String(config['sqlOverride']))) {
        const rows = result['chartData'] as unknown[];
        json = withResult(json, {
          ...(swap(result) as Json),
          chartConfig: { ...(swap(config) as Json), orderBy: [] },
          chartData: [...rows.slice(1), rows[0]],
        });
      }
      stream.blocks[event.block]!.lines[event.line] = `data: ${JSON.stringify(json)}`;
    }
    return withStream(answer, stream, random);
  },
};

// ---------------------------------------------------------------------------------------------
// sse.unanswered-call

/** A tool the agent begins and drops: a look at the documentation, never answered. */
export const UNANSWERED_CALL: Json = {
  type: 'tool-call',
  payload: { toolName: 'searchDocumentation', toolCallId: 'call-docs', args: { topic: 'schema' } },
};

/**
 * §6 does not say that every tool-call gets its tool-result: the agent begins a tool it then
 * drops, before its first event of a named type, and no result for it ever comes.
 */
export const sseUnansweredCall: Transform = {
  id: 'sse.unanswered-call',
  apply(answer, random) {
    if (!isChatStream(answer)) return undefined;
    const stream = parseStream(answer.body);
    const events = eventsOf(stream);
    const first = events.find((e) => NAMED.has(e.type));
    if (first === undefined) return undefined;
    insertAfter(stream, first.block - 1, eventBlocks([UNANSWERED_CALL]));
    return withStream(answer, stream, random);
  },
};

const NAMED = new Set(['text-start', 'text-delta', 'text-end', 'tool-call', 'tool-result']);

// ---------------------------------------------------------------------------------------------
// sse.text-outside

/** Text the agent says before its first message begins: no digits, nothing a row could hold. */
export const OUTSIDE_TEXT = 'Let me look into that. ';

/**
 * §6 does not say that a text-delta sits inside a message: a delta of its own comes before the
 * first text-start (or at the end of a stream with no message).
 */
export const sseTextOutside: Transform = {
  id: 'sse.text-outside',
  apply(answer, random) {
    if (!isChatStream(answer)) return undefined;
    const stream = parseStream(answer.body);
    const events = eventsOf(stream);
    if (events.length === 0) return undefined;
    const [message] = messagesOf(events);
    const at = message === undefined ? events.at(-1)!.block : events[message.start]!.block - 1;
    insertAfter(stream, at, eventBlocks([{ type: 'text-delta', payload: { text: OUTSIDE_TEXT } }]));
    return withStream(answer, stream, random);
  },
};

// ---------------------------------------------------------------------------------------------
// status.chat-stream

/** §4.15 gives the stream's media type and no status: another 2xx than 200. */
export const CHAT_STREAM_STATUS = 201;

export const statusChatStream: Transform = {
  id: 'status.chat-stream',
  apply(answer) {
    if (!isChatStream(answer) || answer.status !== 200) return undefined;
    return { ...answer, status: CHAT_STREAM_STATUS };
  },
};

export const chatStreamTransforms: Transform[] = [
  sseMembersExtra,
  sseRowsReordered,
  sseUnansweredCall,
  sseTextOutside,
  statusChatStream,
];
