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
  /** Index of the event (in `events`), or `end`. */
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
  const open = new Map<string, number>();
  /** Depth of open text messages; above 1 is nesting. */
  let depth = 0;
  let text: string[] = [];

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
    if (type === 'text-start') {
      if (depth > 0) departure('events.text.bracketing', 'a message begins inside another');
      depth += 1;
      text = [];
    } else if (type === 'text-delta') {
      if (typeof p['text'] !== 'string') problem('events.text-delta', 'payload.text is no string');
      else text.push(p['text']);
      if (depth === 0) departure('events.text.bracketing', 'text arrives outside any message');
    } else if (type === 'text-end') {
      if (depth === 0) problem('events.text.closed', 'text-end with no message begun');
      else {
        depth -= 1;
        messages.push(text.join(''));
        text = [];
      }
    } else if (type === 'tool-call') {
      const name = p['toolName'];
      if (typeof name !== 'string') problem('events.tool-call', 'payload.toolName is no string');
      else {
        open.set(name, (open.get(name) ?? 0) + 1);
        toolCalls.push({ toolName: name, payload });
      }
    } else if (type === 'tool-result') {
      const name = p['toolName'];
      if (typeof name !== 'string' || !Object.hasOwn(p, 'result')) {
        problem('events.tool-result', 'payload.toolName or payload.result is missing');
        return;
      }
      const waiting = open.get(name) ?? 0;
      if (waiting === 0)
        problem('events.tool-result.after-call', `a ${name} result that no ${name} call began`);
      else open.set(name, waiting - 1);
      toolResults.push({ toolName: name, result: p['result'], at });
    }
    // Any other type is allowed and skipped (§6).
  });

  if (depth > 0)
    problems.push({
      clause: 'events.text.closed',
      at: 'end',
      message: 'the stream ended with a message begun and never completed (no text-end)',
    });
  for (const [name, count] of open)
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
