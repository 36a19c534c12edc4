/**
 * `eac report --merge SHARD... --out DIR`: the shard runs of one `eac run --shard i/n` matrix
 * put back together as one run, with the coverage, register and not-run causes recomputed
 * over all the results, and the reports rendered as for any run.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Clause } from '../spec/clauses/types.ts';
import { verdictOf, type Gate, type Result, type Results, type Verdict } from './schema.ts';
import { assembleRun } from './assemble.ts';
import type { SectionTitle } from './coverage.ts';

export class MergeError extends Error {
  override readonly name = 'MergeError';
}

export interface ShardRun {
  /** Where it was read from, as given. */
  readonly source: string;
  readonly run: Results;
}

/** What must hold before shards are one run: same seed, one matrix, every shard once. */
function checkShards(shards: readonly ShardRun[]): void {
  if (shards.length === 0) throw new MergeError('give the shard runs to merge');
  const first = shards[0] as ShardRun;
  for (const { source, run } of shards) {
    if (run.shard === undefined)
      throw new MergeError(`${source} is not a shard run (it was not made with --shard i/n)`);
    if (run.seed !== first.run.seed)
      throw new MergeError(
        `${source} ran with seed ${run.seed}, ${first.source} with ${first.run.seed}: shards of one run share the seed`,
      );
    if ((run.only ?? []).join('\n') !== (first.run.only ?? []).join('\n'))
      throw new MergeError(`${source} ran another --only selection than ${first.source}`);
    if (run.gate?.expectationsFile !== first.run.gate?.expectationsFile)
      throw new MergeError(`${source} was gated by another expectations file than ${first.source}`);
  }
  const count = first.run.shard?.count ?? 0;
  const seen = new Map<number, string>();
  for (const { source, run } of shards) {
    const shard = run.shard as NonNullable<Results['shard']>;
    if (shard.count !== count)
      throw new MergeError(`${source} is shard ${shard.index}/${shard.count}, not of ${count}`);
    const twin = seen.get(shard.index);
    if (twin !== undefined)
      throw new MergeError(`${source} and ${twin} are both shard ${shard.index}/${count}`);
    seen.set(shard.index, source);
  }
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !seen.has(i));
  if (missing.length > 0)
    throw new MergeError(
      `shard${missing.length > 1 ? 's' : ''} ${missing.join(', ')} of ${count} missing`,
    );
  const owner = new Map<string, string>();
  for (const { source, run } of shards)
    for (const file of new Set(run.results.map((r) => r.file).filter((f) => f !== ''))) {
      const other = owner.get(file);
      if (other !== undefined)
        throw new MergeError(`${file} ran in ${other} and in ${source}: not shards of one split`);
      owner.set(file, source);
    }
}

/**
 * The results of all shards in the order of an unsharded run, each id unique. Ids are assigned
 * per run, so two tests of one area in files of different shards whose names slug alike both
 * hold the bare id: the later one (by file, then name, as an unsharded run orders them) takes
 * the next free `-N`, as it would have in an unsharded run.
 */
export function mergeResults(lists: readonly (readonly Result[])[]): Result[] {
  const all = lists
    .flat()
    .sort(
      (a, b) =>
        a.area.localeCompare(b.area) ||
        a.file.localeCompare(b.file) ||
        a.name.localeCompare(b.name),
    );
  const taken = new Set(all.map((r) => r.id));
  const seen = new Set<string>();
  return all.map((r) => {
    if (!seen.has(r.id)) {
      seen.add(r.id);
      return r;
    }
    let n = 2;
    while (taken.has(`${r.id}-${n}`)) n += 1;
    const id = `${r.id}-${n}`;
    taken.add(id);
    seen.add(id);
    return { ...r, id };
  });
}

/** The gate of the merged run: counts over all results; unused = unused by every shard. */
function mergeGate(results: readonly Result[], gates: readonly Gate[]): Gate | undefined {
  const first = gates[0];
  if (first === undefined) return undefined;
  const verdicts = results.map(verdictOf);
  const count = (v: Verdict) => verdicts.filter((x) => x === v).length;
  const unexpectedFailures = count('unexpected-fail');
  const unexpectedPasses = count('unexpected-pass');
  const otherUnexpected = count('unexpected-other');
  return {
    expectationsFile: first.expectationsFile,
    entries: first.entries,
    expectedFailures: count('expected-fail'),
    unexpectedFailures,
    unexpectedPasses,
    otherUnexpected,
    unexpected: unexpectedFailures + unexpectedPasses + otherUnexpected,
    unused: first.unused.filter((key) => gates.every((g) => g.unused.includes(key))),
  };
}

/** One run from its shards: the first shard's target and profile, the span of their times. */
export function mergeShards(
  shards: readonly ShardRun[],
  clauses: readonly Clause[],
  sections: readonly SectionTitle[],
): Results {
  checkShards(shards);
  const ordered = [...shards].sort((a, b) => (a.run.shard?.index ?? 0) - (b.run.shard?.index ?? 0));
  const first = (ordered[0] as ShardRun).run;
  const results = mergeResults(ordered.map((s) => s.run.results));
  const startedAt = new Date(Math.min(...ordered.map((s) => Date.parse(s.run.startedAt))));
  const finishedAt = new Date(Math.max(...ordered.map((s) => Date.parse(s.run.finishedAt))));
  const assembled = assembleRun(
    {
      target: first.target,
      profile: first.profile,
      startedAt,
      finishedAt,
      seed: first.seed,
      only: first.only ?? [],
      results,
    },
    clauses,
    sections,
  );
  const gate = mergeGate(
    results,
    ordered.flatMap((s) => (s.run.gate !== undefined ? [s.run.gate] : [])),
  );
  return {
    ...assembled,
    ...(gate !== undefined ? { gate } : {}),
    mergedFrom: ordered.map((s) => s.source),
  };
}

/** Reads the shard runs (folders or results.json files), merges them and writes the reports. */
export async function mergeCommand(
  sources: readonly string[],
  outDir: string,
  clauses: readonly Clause[],
  sections: readonly SectionTitle[],
): Promise<Results> {
  const [{ readRun }, { writeReports }] = await Promise.all([
    import('./compare.ts'),
    import('./report-files.ts'),
  ]);
  const shards: ShardRun[] = [];
  for (const source of sources) shards.push(await readRun(source));
  const merged = mergeShards(shards, clauses, sections);
  await mkdir(path.resolve(outDir), { recursive: true });
  await writeReports(path.resolve(outDir), merged);
  return merged;
}
