/**
 * What a fault run is made of, shared by the wrong-variant catalogue (tools/wrong-variants.ts)
 * and the blind fault rounds (tools/blind-faults.ts): a scratch copy of the project to break, the
 * broken reference served as an outside candidate under another implementation's name, and the
 * whole suite run against it in two stages that stop at the first failing test, with the tests
 * that fail on the unbroken reference too (the baseline) left out of every verdict.
 */
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { listAreas } from '../runner/only.ts';

export const root = new URL('..', import.meta.url).pathname;

/**
 * The name a broken reference announces at `GET {hooks}/capabilities` (`eac serve --announce`):
 * not the reference's, so the runner judges it as any candidate (decisions not checked).
 */
export const FAULT_CANDIDATE = 'eac-fault-candidate';

/** The commit `ref` names (e.g. HEAD), to copy the same tree for every fault of a run. */
export function commitOf(ref: string): string {
  return execFileSync('git', ['rev-parse', '--verify', `${ref}^{commit}`], {
    cwd: root,
    encoding: 'utf8',
  }).trim();
}

/**
 * A copy of the project in a fresh temporary folder (node_modules linked, not copied): of the
 * working tree, or, given `commit`, of that commit's tree alone, so edits others have under way
 * in a shared working tree do not reach the suites or the reference being judged.
 */
export function scratchCopy(commit?: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'eac-variant-'));
  if (commit !== undefined) {
    const tar = join(dir, '.eac-snapshot.tar');
    execFileSync('git', ['archive', '--output', tar, commit], { cwd: root });
    execFileSync('tar', ['-xf', tar, '-C', dir]);
    rmSync(tar);
  } else
    cpSync(root, dir, {
      recursive: true,
      filter: (src) =>
        !/[\\/](node_modules|\.git|\.stryker-tmp|reports[\\/](?:runs|latest|mutation)|\.eac-tmp)(?:[\\/]|$)/.test(
          src.slice(root.length - 1),
        ),
    });
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  // The service document sits beside the project; the copy needs it at the same distance.
  const shared = join(root, '..', 'shared');
  try {
    symlinkSync(shared, join(dir, '..', 'shared'));
  } catch {
    /* already there: tmpdir() holds one shared link for every copy */
  }
  return dir;
}

export function removeCopy(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

export interface Served {
  readonly url: string;
  readonly hooksUrl: string;
  readonly hubUrl: string;
  readonly child: ChildProcess;
}

/** The `eac serve` arguments of a candidate: hooks on, seeded, announcing `announce`. */
export function serveArgs(announce: string = FAULT_CANDIDATE): string[] {
  return ['serve', '--hooks', '--port', '0', '--seed', '7', '--announce', announce];
}

/** Starts `eac serve` in `dir` as a candidate and reads its address from the banner. */
export async function serve(dir: string, announce: string = FAULT_CANDIDATE): Promise<Served> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bin/eac.ts', ...serveArgs(announce)], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let banner = '';
  child.stderr.on('data', (chunk: Buffer) => {
    banner += chunk.toString();
  });
  try {
    const address = await new Promise<{ url: string; hooksUrl: string; hubUrl: string }>(
      (resolve, reject) => {
        const timer = setTimeout(() => {
          reject(new Error(`the reference did not start in 300 s:\n${banner}`));
        }, 300_000);
        child.stdout.on('data', (chunk: Buffer) => {
          banner += chunk.toString();
          const url = /url\s+(http:\/\/\S+)/.exec(banner)?.[1];
          const hooksUrl = /hooksUrl\s+(http:\/\/\S+)/.exec(banner)?.[1];
          const hubUrl = /hubUrl\s+(http:\/\/\S+)/.exec(banner)?.[1];
          if (url !== undefined && hooksUrl !== undefined && hubUrl !== undefined) {
            clearTimeout(timer);
            resolve({ url, hooksUrl, hubUrl });
          }
        });
        child.once('exit', (code) => {
          clearTimeout(timer);
          reject(new Error(`the reference exited (${String(code)}) before listening:\n${banner}`));
        });
      },
    );
    return { ...address, child };
  } catch (error) {
    await stop(child);
    throw error;
  }
}

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
}

export interface Ran {
  readonly pass: number;
  readonly fail: number;
  readonly failing: readonly string[];
}

/**
 * One `eac run` of the selection `only` (everything when empty) in the copy: against the
 * embedded reference, or against `served` as a candidate; `bail` stops at the first failure.
 */
export async function runOnce(
  dir: string,
  only: readonly string[],
  served: Served | undefined,
  bail: boolean,
  latitude: readonly string[] = [],
): Promise<Ran> {
  // A run that wrote nothing must not be read from an earlier run's results.
  removeCopy(join(dir, 'out'));
  try {
    await promisify(execFile)(
      process.execPath,
      [
        '--import',
        'tsx',
        'bin/eac.ts',
        'run',
        ...only.flatMap((o) => ['--only', o]),
        ...(latitude.length > 0 ? ['--latitude', latitude.join(',')] : []),
        ...(served !== undefined
          ? [
              '--target',
              served.url,
              '--hooks',
              served.hooksUrl,
              '--hub',
              served.hubUrl,
              // A candidate without a profile is held to the document alone; a broken
              // reference states the reference's shapes, as its implementer would.
              '--profile',
              'fixtures/profiles/reference.json',
            ]
          : []),
        ...(bail ? ['--bail'] : []),
        '--report',
        'out',
        '--quiet-progress',
        '--seed',
        '7',
      ],
      { cwd: dir, maxBuffer: 64 * 1024 * 1024 },
    );
  } catch {
    /* exit 1 is what a caught fault looks like */
  }
  const results = JSON.parse(readFileSync(join(dir, 'out', 'latest', 'results.json'), 'utf8')) as {
    summary: { pass: number; fail: number };
    results: { name: string; outcome: string }[];
  };
  return {
    pass: results.summary.pass,
    fail: results.summary.fail,
    failing: results.results.filter((r) => r.outcome === 'fail').map((r) => r.name),
  };
}

/** The unbroken reference judged as a candidate over the whole suite. */
export interface Baseline extends Ran {
  readonly seconds: number;
  readonly loadAverage: number;
}

/** Failing tests of a run that do not fail on the unbroken reference too. */
export function ownFailures(ran: Ran, baseline: Baseline | undefined): string[] {
  const unbroken = new Set(baseline?.failing ?? []);
  return ran.failing.filter((f) => !unbroken.has(f));
}

/**
 * A selection run against a candidate that stops at the first failure; when the only failures
 * it saw are the baseline's, it is run again to the end, so a later failure is not lost.
 */
async function sharpRun(
  dir: string,
  only: readonly string[],
  served: Served,
  baseline: Baseline | undefined,
): Promise<Ran> {
  const ran = await runOnce(dir, only, served, true);
  return ran.failing.length > 0 && ownFailures(ran, baseline).length === 0
    ? runOnce(dir, only, served, false)
    : ran;
}

/** Every area of the suite (folders under suites/), for the second stage of a fault. */
export const allAreas: readonly string[] = listAreas(join(root, 'suites'));

/**
 * The suite's other areas than those a selection names; a selection of clause ids only (tests
 * spread over areas) leaves every area.
 */
export function restOf(only: readonly string[], areas: readonly string[]): string[] {
  return areas.filter((a) => !only.includes(a));
}

export function loadNow(): number {
  return Math.round((loadavg()[0] ?? 0) * 10) / 10;
}

/** How the whole suite judged one broken copy served as a candidate. */
export interface Judged extends Ran {
  readonly caught: boolean;
  /** Which stage found it: the fault's own selection, or the rest of the suite. */
  readonly caughtIn?: 'selection' | 'rest of the suite';
  readonly seconds: number;
  /** The one-minute load average when the fault started. */
  readonly loadAverage: number;
}

/**
 * Serves the broken copy `dir` as a candidate and runs the whole suite against it in two
 * stages that each stop at the first failure (the selection `only`, then the rest); caught when
 * a test fails that does not fail on the baseline. `failing` holds every failing test seen.
 */
export async function judgeAsCandidate(
  dir: string,
  only: readonly string[],
  baseline: Baseline | undefined,
): Promise<Judged> {
  const started = Date.now();
  const seconds = () => Math.round((Date.now() - started) / 1000);
  const loadAverage = loadNow();
  const served = await serve(dir);
  try {
    const first = only.length > 0 ? await sharpRun(dir, only, served, baseline) : undefined;
    if (first !== undefined && ownFailures(first, baseline).length > 0)
      return { ...first, caught: true, caughtIn: 'selection', seconds: seconds(), loadAverage };
    const rest = restOf(only, allAreas);
    if (rest.length === 0 && first !== undefined)
      return { ...first, caught: false, seconds: seconds(), loadAverage };
    const second = await sharpRun(dir, rest, served, baseline);
    const caught = ownFailures(second, baseline).length > 0;
    return {
      pass: (first?.pass ?? 0) + second.pass,
      fail: (first?.fail ?? 0) + second.fail,
      failing: [...(first?.failing ?? []), ...second.failing],
      caught,
      ...(caught ? { caughtIn: 'rest of the suite' as const } : {}),
      seconds: seconds(),
      loadAverage,
    };
  } finally {
    await stop(served.child);
  }
}

/**
 * The unbroken reference (of the working tree, or of `commit`), served as a candidate in a copy of
 * its own, over the whole suite: a test failing there says nothing about a fault.
 */
export async function baselineRun(commit?: string): Promise<Baseline> {
  const dir = scratchCopy(commit);
  try {
    const started = Date.now();
    const loadAverage = loadNow();
    const served = await serve(dir);
    try {
      const ran = await runOnce(dir, [], served, false);
      return { ...ran, seconds: Math.round((Date.now() - started) / 1000), loadAverage };
    } finally {
      await stop(served.child);
    }
  } finally {
    removeCopy(dir);
  }
}
