/**
 * A linearizability checker for histories recorded by concurrent clients (issue 11, part 5).
 *
 * A history is a set of operations, each with the time its client sent it (call) and the time
 * the answer arrived (ret). It is linearizable when some sequential order of the operations
 * (1) keeps every operation that returned before another was called ahead of it, and (2) makes
 * a sequential model give, step by step, exactly the answers the clients saw (Herlihy & Wing).
 * Linearizability is local: a history is linearizable exactly when each object's sub-history
 * is, so callers partition by entity key first (as Porcupine and Knossos do) and each search
 * stays small.
 *
 * The search is Wing & Gong's, with Lowe's memoisation: walk the call and return events in
 * time order; linearize a pending call whose answer the model accepts and lift it out of the
 * list; when a return event is reached whose call is not linearized yet, undo the last choice
 * and try the next candidate. A (set of linearized operations, model state) pair seen once is
 * never explored again; the set is a bitset, found in the cache through a Zobrist hash.
 */
import { seededWords } from './random.ts';

/**
 * A sequential specification: what one entity does when operations reach it one at a time.
 * `step` gives the next state when the model can answer `input` with `output`, else undefined.
 */
export interface Model<S, I, O> {
  step(state: S, input: I, output: O): S | undefined;
  /** A string naming the state, equal for equal states (the memo key). */
  key(state: S): string;
  /** One line for a report: what was asked and answered. */
  describe?(input: I, output: O): string;
}

export interface Operation<I, O> {
  readonly client: number;
  readonly input: I;
  readonly output: O;
  /** When the client sent the request (any clock, the same for every operation). */
  readonly call: number;
  /** When the answer arrived; not before `call`. */
  readonly ret: number;
}

export type Verdict =
  | { readonly result: 'linearizable'; readonly steps: number }
  | {
      readonly result: 'not-linearizable';
      readonly steps: number;
      /** The most operations any order could explain before it was stuck. */
      readonly explained: number;
      /** The last operations of that longest explained order, oldest first. */
      readonly lastExplained: readonly string[];
      /** The operation no order could place next: its answer is the one nothing explains. */
      readonly unexplained: string;
    }
  | { readonly result: 'unknown'; readonly steps: number; readonly reason: string };

export interface CheckOptions {
  /** The search gives up (verdict unknown) after this many steps; default 5 million. */
  readonly maxSteps?: number;
}

interface Entry {
  readonly kind: 'call' | 'return';
  /** The operation's index in the history. */
  readonly id: number;
  readonly time: number;
  /** A call's return entry. */
  match: Entry | null;
  prev: Entry | null;
  next: Entry | null;
}

/** The call and return events in time order, as a doubly linked list behind a sentinel. */
function eventList<I, O>(ops: readonly Operation<I, O>[]): Entry {
  const events: Entry[] = [];
  ops.forEach((op, id) => {
    if (!(op.ret >= op.call)) throw new RangeError(`operation ${id} returns before it is called`);
    const ret: Entry = { kind: 'return', id, time: op.ret, match: null, prev: null, next: null };
    events.push({ kind: 'call', id, time: op.call, match: ret, prev: null, next: null }, ret);
  });
  // At equal times a call goes first: two operations that touch at one instant count as
  // overlapping, the reading that accuses a server of less.
  events.sort((a, b) => a.time - b.time || (a.kind === b.kind ? 0 : a.kind === 'call' ? -1 : 1));
  const head: Entry = {
    kind: 'call',
    id: -1,
    time: -Infinity,
    match: null,
    prev: null,
    next: null,
  };
  let last = head;
  for (const e of events) {
    e.prev = last;
    last.next = e;
    last = e;
  }
  return head;
}

/** Takes a call and its return out of the list. */
function lift(call: Entry): void {
  const ret = call.match as Entry;
  (call.prev as Entry).next = call.next;
  (call.next as Entry).prev = call.prev;
  (ret.prev as Entry).next = ret.next;
  if (ret.next !== null) ret.next.prev = ret.prev;
}

/** Puts them back where they were (the reverse of lift). */
function unlift(call: Entry): void {
  const ret = call.match as Entry;
  (ret.prev as Entry).next = ret;
  if (ret.next !== null) ret.next.prev = ret;
  (call.prev as Entry).next = call;
  (call.next as Entry).prev = call;
}

/** Decides whether one entity's history is linearizable with respect to `model` from `init`. */
export function checkLinearizable<S, I, O>(
  model: Model<S, I, O>,
  init: S,
  ops: readonly Operation<I, O>[],
  options: CheckOptions = {},
): Verdict {
  const maxSteps = options.maxSteps ?? 5_000_000;
  const describe = (id: number) => {
    const op = ops[id] as Operation<I, O>;
    const what = model.describe?.(op.input, op.output) ?? JSON.stringify([op.input, op.output]);
    return `client ${op.client} [${op.call.toFixed(1)}, ${op.ret.toFixed(1)}] ${what}`;
  };
  const head = eventList(ops);
  const words = Math.ceil(ops.length / 32);
  const linearized = new Uint32Array(words);
  // The Zobrist numbers come from a fixed seed, so a verdict is reproducible.
  const next = seededWords(0x9e3779b9);
  const zobrist = ops.map(() => [next(), next()] as const);
  let h1 = 0;
  let h2 = 0;
  const flip = (id: number) => {
    linearized[id >>> 5] = (linearized[id >>> 5] as number) ^ (1 << (id & 31));
    const [a, b] = zobrist[id] as readonly [number, number];
    h1 ^= a;
    h2 ^= b;
  };
  const cache = new Map<string, Uint32Array[]>();
  /** Adds the current (linearized, state) pair; false when it was there already. */
  const remember = (state: S): boolean => {
    const slot = `${h1}:${h2}:${model.key(state)}`;
    const seen = cache.get(slot);
    if (seen === undefined) {
      cache.set(slot, [linearized.slice()]);
      return true;
    }
    if (seen.some((bits) => bits.every((w, i) => w === linearized[i]))) return false;
    seen.push(linearized.slice());
    return true;
  };

  const stack: { readonly entry: Entry; readonly state: S }[] = [];
  let state = init;
  let entry = head.next;
  let steps = 0;
  let best: { explained: number; last: number[]; stuck: number } | undefined;
  while (head.next !== null) {
    if (++steps > maxSteps) {
      return {
        result: 'unknown',
        steps,
        reason: `the search gave up after ${maxSteps} steps over ${ops.length} operations`,
      };
    }
    const e = entry as Entry;
    if (e.kind === 'call') {
      const op = ops[e.id] as Operation<I, O>;
      const after = model.step(state, op.input, op.output);
      if (after !== undefined) {
        flip(e.id);
        if (remember(after)) {
          stack.push({ entry: e, state });
          state = after;
          lift(e);
          entry = head.next;
          continue;
        }
        flip(e.id);
      }
      entry = e.next;
    } else {
      // A return whose call could not be placed: nothing explains this order so far.
      if (best === undefined || stack.length > best.explained) {
        best = {
          explained: stack.length,
          last: stack.slice(-6).map((s) => s.entry.id),
          stuck: e.id,
        };
      }
      const top = stack.pop();
      if (top === undefined) {
        return {
          result: 'not-linearizable',
          steps,
          explained: best.explained,
          lastExplained: best.last.map(describe),
          unexplained: describe(best.stuck),
        };
      }
      state = top.state;
      flip(top.entry.id);
      unlift(top.entry);
      entry = top.entry.next;
    }
  }
  return { result: 'linearizable', steps };
}

/** Splits a history by entity key: locality lets each part be checked on its own. */
export function partition<T>(items: Iterable<T>, keyOf: (item: T) => string): Map<string, T[]> {
  const parts = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const part = parts.get(key);
    if (part === undefined) parts.set(key, [item]);
    else part.push(item);
  }
  return parts;
}
