/**
 * Turning what vitest knows about a test case into one line of `results.json`.
 * Pure: the reporter gathers the raw facts, this module decides the outcome.
 */
import { slug, type EacMeta, type Exchange } from '../suites/harness/meta.ts';
import { causesOfResult } from './not-run.ts';
import { replayLine, type ReplayContext } from './replay.ts';
import type { Outcome, Result, Summary } from './schema.ts';

/** What the reporter reads off a finished vitest test case. */
export interface RawCase {
  /** The vitest test name, `<behaviour> {<clause ids>}`. */
  readonly testName: string;
  /** Test file relative to the project root, with `/` separators. */
  readonly file: string;
  readonly state: 'passed' | 'failed' | 'skipped' | 'pending';
  readonly errors: readonly { readonly message?: string }[];
  /** Note given to `ctx.skip(note)`. */
  readonly skipNote?: string;
  readonly meta?: EacMeta;
  readonly durationMs: number;
}

const MAX_REASON = 4000;

/** Splits `a token lives one hour {tokens.expiration.default-1h}` into name and clause ids. */
export function parseTestName(testName: string): { name: string; clauses: string[] } {
  const match = /^(.*?)\s*\{([^{}]*)\}\s*$/.exec(testName);
  if (!match) return { name: testName.trim(), clauses: [] };
  const clauses = (match[2] ?? '').split(/\s+/).filter((id) => id !== '');
  return { name: (match[1] ?? '').trim() || testName.trim(), clauses };
}

/** `suites/roles/update.test.ts` -> `roles`; anything else -> the first folder or `unknown`. */
export function areaFromFile(file: string): string {
  const parts = file.split('/').filter((p) => p !== '' && p !== '.');
  const at = parts.indexOf('suites');
  const area = at >= 0 ? parts[at + 1] : parts.length > 1 ? parts[0] : undefined;
  return area !== undefined && !area.endsWith('.ts') ? area : 'unknown';
}

function firstMessage(errors: RawCase['errors']): string | undefined {
  const message = errors.find((e) => e.message !== undefined && e.message !== '')?.message;
  if (message === undefined) return errors.length > 0 ? 'failed without a message' : undefined;
  return message.length > MAX_REASON ? `${message.slice(0, MAX_REASON)}…` : message;
}

/**
 * The outcome of a test case, or `undefined` when it was not selected for this run
 * (skipped by a filter, `.skip` or `.todo` without a not-run mark).
 */
export function outcomeOf(raw: RawCase): Outcome | undefined {
  switch (raw.state) {
    case 'passed':
      return raw.meta?.outcome === 'probe' || raw.meta?.outcome === 'probe-error'
        ? raw.meta.outcome
        : 'pass';
    case 'failed':
      return 'fail';
    case 'skipped':
      return raw.meta?.outcome === 'not-run' ? 'not-run' : undefined;
    case 'pending':
      return undefined;
  }
}

function reasonOf(raw: RawCase, outcome: Outcome): string | undefined {
  switch (outcome) {
    case 'fail':
      return firstMessage(raw.errors) ?? 'failed';
    case 'not-run':
      return raw.meta?.reason ?? raw.skipNote ?? 'not run';
    case 'probe':
    case 'probe-error': {
      // The whole of each observation is in `observations`; the reason is their short form.
      const reason = raw.meta?.reason;
      return reason !== undefined && reason.length > MAX_REASON
        ? `${reason.slice(0, MAX_REASON)}…`
        : reason;
    }
    case 'pass':
      return undefined;
  }
}

/** A result before `assignIds`: no id yet, and the test's explicit id when it declared one. */
export type Unnamed = Omit<Result, 'id'> & { explicitId?: string };

/** One result line, without its id (ids are assigned over the whole run, see `assignIds`). */
export function toResult(raw: RawCase, context: ReplayContext): Unnamed | undefined {
  const outcome = outcomeOf(raw);
  if (outcome === undefined) return undefined;
  const parsed = parseTestName(raw.testName);
  const meta = raw.meta;
  const clauses = meta?.clauses ?? parsed.clauses;
  const area = meta?.area ?? areaFromFile(raw.file);
  const result: Unnamed = {
    ...(meta?.id !== undefined ? { explicitId: meta.id } : {}),
    name: meta?.name ?? parsed.name,
    area,
    file: raw.file,
    clauses: [...clauses],
    ...(meta?.kind !== undefined ? { kind: meta.kind } : {}),
    relies: [...(meta?.relies ?? [])],
    outcome,
    seed: meta?.seed ?? context.runSeed,
    // The id assignIds will give unless two names slug alike; --only takes it (runner/only.ts).
    replay: replayLine(context, `${area}/${meta?.id ?? slug(meta?.name ?? parsed.name)}`),
    durationMs: Math.max(0, Math.round(raw.durationMs)),
  };
  const reason = reasonOf(raw, outcome);
  if (reason !== undefined) result.reason = reason;
  // A test skipped outside the harness gave no causes: its reason is the entry, of kind other.
  if (outcome === 'not-run')
    result.causes = causesOfResult({ causes: meta?.causes?.map((c) => ({ ...c })), reason });
  if (meta?.decision !== undefined && outcome !== 'pass') result.decision = meta.decision;
  // What a probe saw stays with it even when, held to the decision, it failed.
  const evidence = outcome === 'fail' || outcome === 'probe' || outcome === 'probe-error';
  if (meta?.observations !== undefined && evidence)
    result.observations = meta.observations.map((o) => ({ ...o }));
  // Exchanges are evidence for a reader; a pass needs none, and they are large.
  if (evidence && meta?.exchanges !== undefined) {
    result.exchanges = meta.exchanges.map(copyExchange);
  }
  return result;
}

function copyExchange(exchange: Exchange): Exchange {
  // Through JSON so that what lands in results.json is exactly what was recorded.
  return JSON.parse(JSON.stringify(exchange)) as Exchange;
}

/**
 * Gives every result its stable id: `<area>/<explicit id>` for a test that declared one,
 * `<area>/<slug of the name>` otherwise, suffixing `-2`, `-3` on collisions. Explicit ids are
 * taken first, so a test with one keeps it even when another test's name slugs the same.
 */
export function assignIds(results: readonly Unnamed[]): Result[] {
  const sorted = [...results].sort(
    (a, b) =>
      a.area.localeCompare(b.area) || a.file.localeCompare(b.file) || a.name.localeCompare(b.name),
  );
  const taken = new Set<string>();
  const ids = new Map<Unnamed, string>();
  const claim = (r: Unnamed, base: string) => {
    let id = base;
    for (let n = 2; taken.has(id); n += 1) id = `${base}-${n}`;
    taken.add(id);
    ids.set(r, id);
  };
  for (const r of sorted) if (r.explicitId !== undefined) claim(r, `${r.area}/${r.explicitId}`);
  for (const r of sorted) if (r.explicitId === undefined) claim(r, `${r.area}/${slug(r.name)}`);
  return sorted.map((r) => {
    const { explicitId: _explicit, ...rest } = r;
    void _explicit;
    return { id: ids.get(r) ?? `${r.area}/${slug(r.name)}`, ...rest };
  });
}

export function summarize(results: readonly Pick<Result, 'outcome'>[]): Summary {
  const summary: Summary = {
    pass: 0,
    fail: 0,
    notRun: 0,
    probe: 0,
    total: results.length,
    probeErrors: 0,
  };
  for (const { outcome } of results) {
    if (outcome === 'not-run') summary.notRun += 1;
    else if (outcome === 'probe-error') summary.probeErrors += 1;
    else summary[outcome] += 1;
  }
  return summary;
}
