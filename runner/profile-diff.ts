/**
 * How a profile differs from what `eac profile discover` observed on the target (`eac doctor
 * --observe`): per stated or observed leaf, whether the two agree, differ, or only one side has
 * it. Pure: it compares two profiles and reads nothing else.
 */
import { isDeepStrictEqual } from 'node:util';
import type { TargetProfile } from '../spec/profile.ts';

export type DiffVerdict = 'same' | 'differs' | 'unstated' | 'not-observed';

export interface DiffRow {
  /** Where in the profile: `shapes.tokenClaims.role`, `follows`, `serves`, `hub.things.chart`. */
  readonly at: string;
  readonly verdict: DiffVerdict;
  readonly stated?: unknown;
  readonly observed?: unknown;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The leaves of a profile section, keyed by dotted path; arrays are leaves. */
function leaves(value: unknown, at: string, into: Map<string, unknown>): Map<string, unknown> {
  if (isObject(value) && Object.keys(value).length > 0)
    for (const [k, v] of Object.entries(value)) leaves(v, at === '' ? k : `${at}.${k}`, into);
  else if (value !== undefined) into.set(at, value);
  return into;
}

/** What the profile's author writes and discover never does: its description and schema link. */
const UNCOMPARED = new Set(['description', '$schema']);

/**
 * Every leaf either side holds, with its verdict. `serves` and `follows` compare entry by entry
 * (a part or a decision is its own row); the other sections leaf by leaf.
 */
export function diffProfiles(stated: TargetProfile, observed: TargetProfile): DiffRow[] {
  const rows: DiffRow[] = [];
  for (const list of ['serves', 'follows'] as const) {
    const s = new Set<string>(stated[list] ?? []);
    const o = new Set<string>(observed[list] ?? []);
    for (const entry of [...new Set([...s, ...o])].sort()) {
      const at = `${list}.${entry}`;
      if (s.has(entry) && o.has(entry)) rows.push({ at, verdict: 'same' });
      else if (s.has(entry)) rows.push({ at, verdict: 'not-observed', stated: true });
      else rows.push({ at, verdict: 'unstated', observed: true });
    }
  }
  const rest = (p: TargetProfile) =>
    Object.fromEntries(
      Object.entries(p).filter(([k]) => k !== 'serves' && k !== 'follows' && !UNCOMPARED.has(k)),
    );
  const s = leaves(rest(stated), '', new Map());
  const o = leaves(rest(observed), '', new Map());
  for (const at of [...new Set([...s.keys(), ...o.keys()])].sort()) {
    const sv = s.get(at);
    const ov = o.get(at);
    if (sv !== undefined && ov !== undefined)
      rows.push(
        isDeepStrictEqual(sv, ov) || covers(at, sv, ov)
          ? { at, verdict: 'same', stated: sv }
          : { at, verdict: 'differs', stated: sv, observed: ov },
      );
    else if (sv !== undefined) rows.push({ at, verdict: 'not-observed', stated: sv });
    else rows.push({ at, verdict: 'unstated', observed: ov });
  }
  return rows;
}

/** An observed answer that includes the stated one: a target taking both header forms. */
function covers(at: string, stated: unknown, observed: unknown): boolean {
  return at === 'shapes.authorizationHeader' && observed === 'both' && stated !== 'both';
}

const show = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

/** The terminal's lines: differences first, then what a profile could add, then counts. */
export function renderDiff(rows: readonly DiffRow[]): string[] {
  const of = (v: DiffVerdict) => rows.filter((r) => r.verdict === v);
  const lines: string[] = [];
  const differs = of('differs');
  const unstated = of('unstated');
  const unseen = of('not-observed');
  lines.push(
    `  the profile against what the target showed: ${of('same').length} agree, ${differs.length} differ, ${unstated.length} observed but not stated, ${unseen.length} stated but not observed`,
  );
  for (const r of differs)
    lines.push(
      `    ≠ ${r.at}: the profile says ${show(r.stated)}, discover found ${show(r.observed)}`,
    );
  for (const r of unstated)
    lines.push(
      `    + ${r.at}: ${r.observed === true ? 'discover saw it' : `discover found ${show(r.observed)}`}; the profile does not state it`,
    );
  if (unseen.length > 0) {
    // By section, counted: the leaves discover has no way to check are many (a hub's controls).
    const sections = new Map<string, number>();
    for (const r of unseen) {
      const parts = r.at.split('.');
      const section =
        parts[0] === 'follows' || parts[0] === 'serves' ? parts[0] : parts.slice(0, 2).join('.');
      sections.set(section, (sections.get(section) ?? 0) + 1);
    }
    lines.push(
      `    stated but not observed (--json lists them): ${[...sections].map(([k, n]) => (n === 1 ? k : `${k} ×${n}`)).join(', ')}`,
    );
  }
  return lines;
}
