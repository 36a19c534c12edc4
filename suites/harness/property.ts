/**
 * Options for `fc.assert` in a conformance test (`t.fc()`): seeded like the rest of the test,
 * and a reporter that words a failure for a person who has neither the test nor fast-check at
 * hand: the assertion that failed, each part of the counterexample by name, and expected
 * against actual. fast-check's own report shows the counterexample as it prints it
 * (`Counterexample: [{}]`) and leaves the assertion in the error's cause, which no report reads.
 */
import fc, { type RunDetails, type StringConstraints } from 'fast-check';
import { inspect } from 'node:util';

export interface PropertyOptions {
  readonly seed: number;
  readonly numRuns: number;
  readonly endOnFailure: boolean;
  reporter<Ts>(details: RunDetails<Ts>): void;
}

/** A value in one line: JSON where it is JSON, else as Node prints it. */
function shown(value: unknown): string {
  if (value === undefined) return 'undefined';
  try {
    const json = JSON.stringify(value);
    if (json !== undefined) return json;
  } catch {
    // cyclic, or a BigInt: Node's own printing below
  }
  return inspect(value, { depth: 4, breakLength: Infinity });
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** One part of the counterexample: an object member by member, anything else whole. */
function part(value: unknown): string {
  if (!isPlainObject(value)) return shown(value);
  const members = Object.entries(value);
  if (members.length === 0) return '{} (no member)';
  return members.map(([key, v]) => `${key} = ${shown(v)}`).join(', ');
}

/** What the failing assertion said, and what it expected and got when it says so. */
function assertion(error: unknown): { message: string; lines: string[] } {
  if (!(error instanceof Error)) return { message: String(error), lines: [] };
  const lines: string[] = [];
  const e = error as Error & { expected?: unknown; actual?: unknown; showDiff?: boolean };
  if ('expected' in e || 'actual' in e) {
    lines.push(`  expected: ${shown(e.expected)}`, `  actual:   ${shown(e.actual)}`);
  }
  return { message: error.message, lines };
}

/** The failure of a property in words: what to throw in fast-check's place. */
export function propertyFailure<Ts>(details: RunDetails<Ts>): Error {
  const runs = `after ${details.numRuns} run${details.numRuns === 1 ? '' : 's'}`;
  const shrunk = `shrunk ${details.numShrinks} time${details.numShrinks === 1 ? '' : 's'}`;
  const where = `fast-check seed ${details.seed}, path "${details.counterexamplePath ?? ''}"`;
  const values = Array.isArray(details.counterexample) ? details.counterexample : [];
  const { message, lines } = details.failed
    ? assertion(details.errorInstance)
    : { message: 'the property did not run to its end', lines: [] };
  const [first = 'the property failed', ...rest] = message.split('\n');
  return new Error(
    [
      first,
      `counterexample (${where}, ${runs}, ${shrunk}):`,
      ...values.map((v, i) => `  value ${i + 1}: ${part(v)}`),
      ...lines,
      ...rest,
    ].join('\n'),
    { cause: details.errorInstance },
  );
}

export function propertyOptions(seed: number, numRuns: number): PropertyOptions {
  return {
    seed,
    numRuns,
    endOnFailure: true,
    reporter<Ts>(details: RunDetails<Ts>) {
      if (details.failed) throw propertyFailure(details);
    },
  };
}

/**
 * Member names a server may read as the object's prototype instead of as data: `__proto__`, and
 * `constructor` or `prototype`. What a server does with them is errors.validation.prototype-keys,
 * our decision (another server may drop them unread, as the latitude proxy's
 * bodies.prototype-keys-dropped does), so a test of any other clause never sends them.
 */
export const PROTOTYPE_MEMBERS: readonly string[] = ['__proto__', 'constructor', 'prototype'];

/** Any member name of a JSON body but the prototype ones. */
export function memberName(constraints: StringConstraints = {}): fc.Arbitrary<string> {
  return fc.string(constraints).filter((name) => !PROTOTYPE_MEMBERS.includes(name));
}
