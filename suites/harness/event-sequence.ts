import type { ClauseId } from '../../spec/clauses/index.ts';
import type { ReadStream } from './sse.ts';

/**
 * The §6 grammar as the suites check it, written from the document apart from the model in
 * spec/machines/chat-stream.ts (which the suites may not import): the golden streams of
 * fixtures/streams are judged by both, so a slip in one shows against the other.
 *
 * A `problem` breaks a clause §6 states; a `departure` only leaves the reference's decision
 * where §6 is silent (text outside a message, nested messages, a tool never answered), which
 * probes report and conformance tests do not fail on.
 */

export interface GrammarIssue {
  readonly clause: ClauseId;
  /**
   * Index of the event (in `events`) where the rule is broken, or `end`; a message never
   * completed is reported at its text-start (found only once the stream ends).
   */
  readonly at: number | 'end';
  readonly message: string;
}

export interface ToolResult {
  readonly toolName: string;
  readonly result: unknown;
  /** Index of the event. */
  readonly at: number;
}

export interface GrammarReport {
  /** The type of each event, in order (`?` where the line held no typed JSON object). */
  readonly types: readonly string[];
  readonly problems: readonly GrammarIssue[];
  readonly departures: readonly GrammarIssue[];
  readonly toolCalls: readonly { readonly toolName: string; readonly payload: unknown }[];
  readonly toolResults: readonly ToolResult[];
  /** Texts of the completed assistant messages. */
  readonly messages: readonly string[];
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export function checkGrammar(stream: ReadStream): GrammarReport {
  const problems: GrammarIssue[] = [];
  const departures: GrammarIssue[] = [];
  const types: string[] = [];
  const toolCalls: { toolName: string; payload: unknown }[] = [];
  const toolResults: ToolResult[] = [];
  const messages: string[] = [];
  /** Calls not yet answered, by tool name: how many. */
  const calls = new Map<string, number>();
  /**
   * The messages begun and not yet completed, innermost last: the index of each one's
   * text-start and its text so far. More than one is nesting; a text-end completes the
   * innermost, a delta adds to it.
   */
  const open: { readonly at: number; readonly text: string[] }[] = [];

  stream.events.forEach((event, at) => {
    const problem = (clause: ClauseId, message: string) =>
      problems.push({
        clause,
        at,
        message: `event ${at} (${event.raw.slice(0, 120)}): ${message}`,
      });
    const departure = (clause: ClauseId, message: string) =>
      departures.push({ clause, at, message: `event ${at}: ${message}` });
    if (event.error !== undefined || !isObj(event.json)) {
      types.push('?');
      problem('events.stream.line-format', 'the data line does not hold a JSON object');
      return;
    }
    const { type, payload } = event.json;
    if (typeof type !== 'string') {
      types.push('?');
      problem('events.stream.type-field', 'the event has no string type');
      return;
    }
    types.push(type);
    const p = isObj(payload) ? payload : {};
    const current = open.at(-1);
    if (type === 'text-start') {
      if (current !== undefined)
        departure(
          'events.text.bracketing',
          `a message begins inside another (begun at event ${current.at})`,
        );
      open.push({ at, text: [] });
    } else if (type === 'text-delta') {
      if (typeof p['text'] !== 'string') problem('events.text-delta', 'payload.text is no string');
      else current?.text.push(p['text']);
      if (current === undefined)
        departure('events.text.bracketing', 'text arrives outside any message');
    } else if (type === 'text-end') {
      if (current === undefined) problem('events.text.closed', 'text-end with no message begun');
      else {
        open.pop();
        messages.push(current.text.join(''));
      }
    } else if (type === 'tool-call') {
      const name = p['toolName'];
      if (typeof name !== 'string') problem('events.tool-call', 'payload.toolName is no string');
      else {
        calls.set(name, (calls.get(name) ?? 0) + 1);
        toolCalls.push({ toolName: name, payload });
      }
    } else if (type === 'tool-result') {
      const name = p['toolName'];
      if (typeof name !== 'string' || !Object.hasOwn(p, 'result')) {
        problem('events.tool-result', 'payload.toolName or payload.result is missing');
        return;
      }
      const waiting = calls.get(name) ?? 0;
      if (waiting === 0)
        problem('events.tool-result.after-call', `a ${name} result that no ${name} call began`);
      else calls.set(name, waiting - 1);
      toolResults.push({ toolName: name, result: p['result'], at });
    }
    // Any other type is allowed and skipped (§6).
  });

  // Each message left open is reported at its own text-start, so a reader sees which one.
  for (const { at } of open)
    problems.push({
      clause: 'events.text.closed',
      at,
      message: `event ${at}: the message begun here is never completed (the stream ends first)`,
    });
  for (const [name, count] of calls)
    if (count > 0)
      departures.push({
        clause: 'events.tool-call.answered',
        at: 'end',
        message: `${count} ${name} call(s) never answered by a tool-result`,
      });
  return { types, problems, departures, toolCalls, toolResults, messages };
}

/** The generateChart results of a stream (each should be a §2.7 chat result). */
export function chartResults(report: GrammarReport): unknown[] {
  return report.toolResults.filter((r) => r.toolName === 'generateChart').map((r) => r.result);
}

/** One line per issue, for assertion messages. */
export function describeIssues(issues: readonly GrammarIssue[]): string {
  return issues.map((i) => `${i.clause}: ${i.message}`).join('\n');
}
