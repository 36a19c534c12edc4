/**
 * What a mutation run has judged so far (tools/mutation/live-reporter.mjs writes it as it goes): per file,
 * the mutants judged, detected and undetected, and every undetected mutant, for triage while a
 * long run is under way or after one was stopped. A partial figure is not a score: only a
 * finished run (tools/mutation/run.ts) writes reports/mutation/scores.json.
 *
 *   npm run mutation:live                       # reports/mutation/live.ndjson
 *   npm run mutation:live -- --file <path> --json
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { DETECTED, UNDETECTED } from './slices.ts';

const root = join(import.meta.dirname, '..', '..');

export interface LiveMutant {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly mutator: string;
  readonly replacement: string;
  readonly status: string;
}
interface Header {
  readonly startedAt: string;
  readonly mutants: number;
}

/** The run's header and its judged mutants, from the live file's text. */
export function readLive(text: string): { header: Header; mutants: LiveMutant[] } {
  const [first, ...rest] = text.split('\n').filter((l) => l.trim() !== '');
  if (first === undefined) throw new Error('the live file is empty: no run has started');
  return {
    header: JSON.parse(first) as Header,
    mutants: rest.map((l) => JSON.parse(l) as LiveMutant),
  };
}

/** Per file: judged, detected, undetected, and the undetected mutants' lines. */
export function summarise(mutants: readonly LiveMutant[]) {
  const files = new Map<string, { judged: number; detected: number; undetected: string[] }>();
  for (const m of mutants) {
    const f = files.get(m.file) ?? { judged: 0, detected: 0, undetected: [] };
    if (DETECTED.has(m.status) || UNDETECTED.has(m.status)) f.judged += 1;
    if (DETECTED.has(m.status)) f.detected += 1;
    if (UNDETECTED.has(m.status))
      f.undetected.push(`${m.line}:${m.column} ${m.mutator} ${m.status} -> ${m.replacement}`);
    files.set(m.file, f);
  }
  return [...files.entries()].sort(([a], [b]) => a.localeCompare(b));
}

if (import.meta.url === `file://${process.argv[1] ?? ''}`) {
  const { values } = parseArgs({
    options: {
      file: { type: 'string', default: join(root, 'reports', 'mutation', 'live.ndjson') },
      json: { type: 'boolean', default: false },
    },
  });
  if (!existsSync(values.file)) {
    console.error(`no live file at ${values.file}: start a run with npm run mutation`);
    process.exit(2);
  }
  const { header, mutants } = readLive(readFileSync(values.file, 'utf8'));
  const files = summarise(mutants);
  if (values.json) {
    console.log(
      JSON.stringify({ header, judged: mutants.length, files: Object.fromEntries(files) }, null, 2),
    );
  } else {
    console.log(
      `run started ${header.startedAt}: ${mutants.length} of ${header.mutants} mutants reported so far (partial figures, not scores)`,
    );
    for (const [file, f] of files) {
      const pct = f.judged === 0 ? '-' : `${((f.detected / f.judged) * 100).toFixed(1)} %`;
      console.log(`\n${file}: ${f.detected} of ${f.judged} detected (${pct})`);
      for (const u of f.undetected) console.log(`  ${u}`);
    }
  }
}
