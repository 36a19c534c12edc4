/** Where a run's reports live on disk: `<root>/runs/<stamp>/` and `<root>/latest` pointing at it. */
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { causesOfResult, countNotRun } from './not-run.ts';
import {
  READABLE_VERSIONS,
  ResultsSchema,
  SCHEMA_VERSION,
  type Result,
  type Results,
} from './schema.ts';
import { htmlContext, renderHtml } from './html.ts';
import { renderJunit } from './junit.ts';
import { renderSummary } from './summary-md.ts';

export const REPORT_FILES = ['results.json', 'junit.xml', 'summary.md', 'index.html'] as const;

/** `2025-11-22T00-31-05Z-s1kq7x2`: sorts by time, safe on every file system, tells seeds apart. */
export function runStamp(at: Date, seed: number): string {
  const iso = at
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/:/g, '-');
  return `${iso}-s${(seed >>> 0).toString(36)}`;
}

/** Creates a fresh run folder under `<root>/runs/`, never reusing an existing one. */
export async function createRunDir(root: string, at: Date, seed: number): Promise<string> {
  const runs = path.join(root, 'runs');
  await mkdir(runs, { recursive: true });
  const stamp = runStamp(at, seed);
  for (let n = 1; ; n += 1) {
    const dir = path.join(runs, n === 1 ? stamp : `${stamp}-${n}`);
    try {
      await mkdir(dir);
      return dir;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}

/** When a run folder's run finished, from its results.json; undefined when it has none yet. */
async function finishedAt(runDir: string): Promise<number | undefined> {
  try {
    const data = JSON.parse(await readFile(path.join(runDir, 'results.json'), 'utf8')) as {
      finishedAt?: unknown;
    };
    const at = typeof data.finishedAt === 'string' ? Date.parse(data.finishedAt) : NaN;
    return Number.isNaN(at) ? undefined : at;
  } catch {
    return undefined;
  }
}

/**
 * Points `<root>/latest` at `runDir` in one rename of a fresh symlink, so readers never see a
 * gap, and returns the link; or leaves it, returning undefined, when it already shows a run
 * that finished later (two runs sharing a reports folder: the last to finish keeps it).
 */
export async function pointLatest(root: string, runDir: string): Promise<string | undefined> {
  const latest = path.join(root, 'latest');
  const [held, mine] = await Promise.all([finishedAt(latest), finishedAt(runDir)]);
  if (held !== undefined && mine !== undefined && held > mine) return undefined;
  // Named for this swap alone: two runs of one process may swap in the same millisecond.
  const temp = path.join(root, `.latest-${process.pid}-${randomUUID()}`);
  const relative = path.relative(root, runDir);
  await symlink(relative, temp, process.platform === 'win32' ? 'junction' : 'dir');
  try {
    await rename(temp, latest);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  return latest;
}

/** Validates and writes the four report files of a run. */
export async function writeReports(runDir: string, run: Results): Promise<void> {
  const checked = ResultsSchema.parse(run);
  await writeFile(path.join(runDir, 'results.json'), `${JSON.stringify(checked, null, 2)}\n`);
  await renderReports(runDir, checked);
}

/** Writes the files rendered from results.json (what `eac report` refreshes). */
export async function renderReports(runDir: string, run: Results): Promise<void> {
  const checked = ResultsSchema.parse(run);
  await Promise.all([
    writeFile(path.join(runDir, 'junit.xml'), renderJunit(checked)),
    writeFile(path.join(runDir, 'summary.md'), renderSummary(checked)),
    writeFile(
      path.join(runDir, 'index.html'),
      renderHtml(checked, await htmlContext(runDir, checked)),
    ),
  ]);
}

/**
 * An older results.json as this version: before 5, a probe that broke while recording was a
 * probe holding an observation of kind probe-error; it is the probe-error it was. Before 6, a
 * not-run carried its cause only in the prose of its reason, which is not read: it waits on
 * one cause of kind `other`, its reason's first line, and the causes are counted again.
 */
function upgrade(data: Record<string, unknown>, version: number): Record<string, unknown> {
  const results = Array.isArray(data['results']) ? (data['results'] as unknown[]) : undefined;
  const summary = data['summary'];
  if (results === undefined || typeof summary !== 'object' || summary === null)
    return { ...data, schemaVersion: SCHEMA_VERSION };
  let broken = 0;
  const upgraded = results.map((r) => {
    const result = r as Partial<Result> & { observations?: { kind?: unknown }[] };
    if (result.outcome === 'not-run' && version < 6)
      return { ...result, causes: causesOfResult({ reason: result.reason }) };
    if (
      version >= 5 ||
      result.outcome !== 'probe' ||
      !result.observations?.some((o) => o.kind === 'probe-error')
    )
      return r;
    broken += 1;
    return { ...result, outcome: 'probe-error' };
  });
  const counts = summary as { probe?: number; probeErrors?: number };
  return {
    ...data,
    schemaVersion: SCHEMA_VERSION,
    results: upgraded,
    notRunCauses: countNotRun(upgraded as Result[]),
    summary:
      version >= 5
        ? counts
        : { ...counts, probe: (counts.probe ?? 0) - broken, probeErrors: broken },
  };
}

export async function readResults(runDir: string): Promise<Results> {
  return readResultsFile(path.join(runDir, 'results.json'));
}

/** Reads and checks one results.json, saying plainly when it comes from an older eac. */
export async function readResultsFile(file: string): Promise<Results> {
  const text = await readFile(file, 'utf8');
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new Error(`${file} is not JSON: ${(error as Error).message}`, { cause: error });
  }
  const version =
    typeof data === 'object' && data !== null
      ? (data as { schemaVersion?: unknown }).schemaVersion
      : undefined;
  if (typeof version !== 'number' || !READABLE_VERSIONS.includes(version)) {
    throw new Error(
      `${file} has results schema version ${version === undefined ? '1 (no schemaVersion)' : JSON.stringify(version)}; this eac reads versions ${READABLE_VERSIONS.join(' and ')}: run the suites again`,
    );
  }
  // An older version's shape is a subset of this one: read it as this version.
  if (version !== SCHEMA_VERSION) data = upgrade(data as Record<string, unknown>, version);
  const parsed = ResultsSchema.safeParse(data);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .slice(0, 5)
      .map((i) => `  ${i.path.join('.') || '(root)'}: ${i.message}`)
      .join('\n');
    throw new Error(`${file} does not match the results schema:\n${issues}`);
  }
  return parsed.data;
}
