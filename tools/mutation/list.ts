/**
 * Every mutant Stryker makes of a file as it is now, with the status the incremental file last
 * gave it: for triage and for checking a judgement of tools/mutation/judgements.json before a
 * run (a mutant it covers is listed as Ignored, with its reason). Runs Stryker's own
 * instrumenter, so the mutants are the ones a run would test; nothing is run.
 *
 *   npx tsx tools/mutation/list.ts reference/chat/agent.ts          # every mutant
 *   npx tsx tools/mutation/list.ts --undetected reference/chat/*.ts # survivors, no-coverage, new
 *   npx tsx tools/mutation/list.ts --line 58 reference/chat/agent.ts
 *   npx tsx tools/mutation/list.ts --json reference/chat/agent.ts
 *
 * A mutant is matched with its last result by mutator, replacement and the code it replaces
 * (the n-th such mutant of the file with the n-th), so results survive lines moving; a mutant the
 * incremental file does not hold (new or changed code) is listed as `new`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';

import type { Logger } from '@stryker-mutator/api/logging';
import { Instrumenter } from '@stryker-mutator/instrumenter';

import type { LiveMutant } from './live.ts';
import { ignorer } from './ignore.mjs';
import { UNDETECTED } from './slices.ts';

const root = join(import.meta.dirname, '..', '..');

interface Location {
  readonly start: { readonly line: number; readonly column: number };
  readonly end: { readonly line: number; readonly column: number };
}
interface Reported {
  readonly mutatorName: string;
  readonly replacement?: string;
  readonly location: Location;
  readonly status: string;
}
/** A mutant as the live file gives it (lines and columns from 1); its status is the last
 * result (Killed, Survived, ...), Ignored (with the comment's reason) or `new`. */
export interface Listed extends LiveMutant {
  /** Where the mutated node ends (line from 1, column from 1, exclusive). */
  readonly endLine: number;
  readonly endColumn: number;
  readonly reason?: string;
}

/** The text a location covers; lines and columns from 1 (Stryker's reports) or 0 (its instrumenter). */
function textAt(source: string, loc: Location, base: 0 | 1): string {
  const lines = source.split('\n');
  const s = loc.start.line - base;
  const e = loc.end.line - base;
  const sc = loc.start.column - base;
  const ec = loc.end.column - base;
  if (s === e) return (lines[s] ?? '').slice(sc, ec);
  return [(lines[s] ?? '').slice(sc), ...lines.slice(s + 1, e), (lines[e] ?? '').slice(0, ec)].join(
    '\n',
  );
}

const key = (mutator: string, replacement: string, text: string) =>
  `${mutator}\u0000${replacement.replace(/\s+/g, ' ')}\u0000${text.replace(/\s+/g, ' ')}`;

const silent: Logger = {
  isTraceEnabled: () => false,
  isDebugEnabled: () => false,
  isInfoEnabled: () => false,
  isWarnEnabled: () => false,
  isErrorEnabled: () => false,
  isFatalEnabled: () => false,
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  fatal: () => undefined,
};

/** The mutants of the files now, each with its last known status. */
export async function listMutants(
  files: readonly string[],
  incrementalFile = join(root, 'reports', 'mutation', 'stryker-incremental.json'),
): Promise<Listed[]> {
  const incremental = existsSync(incrementalFile)
    ? (JSON.parse(readFileSync(incrementalFile, 'utf8')) as {
        files: Record<string, { source: string; mutants: Reported[] }>;
      })
    : { files: {} };
  const instrumenter = new Instrumenter(silent);
  const out: Listed[] = [];
  for (const file of files) {
    const name = relative(root, join(root, file));
    const content = readFileSync(join(root, name), 'utf8');
    const { mutants } = await instrumenter.instrument([{ name, content, mutate: true }], {
      plugins: null,
      excludedMutations: [],
      // The judgements of tools/mutation/judgements.json, as a run applies them.
      ignorers: [ignorer],
    });
    // The last results of this file, queued per key in the order of the file.
    const last = new Map<string, string[]>();
    const before = incremental.files[name];
    // In the order of the file, as the current mutants are taken (the report lists them
    // otherwise), so the n-th of equal keys meets the n-th.
    const earlier = [...(before?.mutants ?? [])].sort(
      (a, b) =>
        a.location.start.line - b.location.start.line ||
        a.location.start.column - b.location.start.column,
    );
    for (const m of earlier) {
      const k = key(m.mutatorName, m.replacement ?? '', textAt(before!.source, m.location, 1));
      last.set(k, [...(last.get(k) ?? []), m.status]);
    }
    const sorted = [...mutants].sort(
      (a, b) =>
        a.location.start.line - b.location.start.line ||
        a.location.start.column - b.location.start.column,
    );
    for (const m of sorted) {
      const k = key(m.mutatorName, m.replacement, textAt(content, m.location, 0));
      const queue = last.get(k);
      const previous = queue?.shift();
      out.push({
        file: name,
        line: m.location.start.line + 1,
        column: m.location.start.column + 1,
        endLine: m.location.end.line + 1,
        endColumn: m.location.end.column + 1,
        mutator: m.mutatorName,
        replacement: m.replacement,
        status: m.status === 'Ignored' ? 'Ignored' : (previous ?? 'new'),
        ...(m.statusReason !== undefined ? { reason: m.statusReason } : {}),
      });
    }
  }
  return out;
}

if (process.argv[1] === import.meta.filename) {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      undetected: { type: 'boolean', default: false },
      line: { type: 'string' },
      json: { type: 'boolean', default: false },
      incremental: { type: 'string' },
    },
  });
  if (positionals.length === 0) {
    console.error(
      'usage: npx tsx tools/mutation/list.ts [--undetected] [--line N] [--json] FILE...',
    );
    process.exit(2);
  }
  const all = await listMutants(positionals, values.incremental);
  const shown = all.filter(
    (m) =>
      (!values.undetected || UNDETECTED.has(m.status) || m.status === 'new') &&
      (values.line === undefined || m.line === Number(values.line)),
  );
  if (values.json) console.log(JSON.stringify(shown, null, 1));
  else
    for (const m of shown)
      console.log(
        `${m.file}:${m.line}:${m.column} ${m.mutator} -> ${m.replacement.replace(/\s+/g, ' ').slice(0, 80)} [${m.status}]${m.reason !== undefined ? ` (${m.reason})` : ''}`,
      );
  const count = (s: (m: Listed) => boolean) => all.filter(s).length;
  console.error(
    `${all.length} mutants: ${count((m) => m.status === 'Killed' || m.status === 'Timeout')} detected, ${count((m) => UNDETECTED.has(m.status))} undetected, ${count((m) => m.status === 'Ignored')} ignored, ${count((m) => m.status === 'new')} new (no result yet)`,
  );
}
