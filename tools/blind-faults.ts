/**
 * A blind fault round: slips written from the document alone by an author who has not read the
 * suites, one git patch of the reference each (bench/blind-faults/round-N/, see
 * tools/blind-round.ts), judged as the fault catalogue judges its faults (tools/fault-run.ts).
 * For each slip: a scratch copy, `git apply` of its patch, the broken reference served as an
 * outside candidate under another implementation's name, and the whole suite against it in two
 * stages that stop at the first failing test (the slip's clause ids, then every area); tests
 * that fail on the unbroken reference too count for no slip. A patch that does not apply or a
 * server that does not start is an error: neither caught nor missed.
 *
 *   npx tsx tools/blind-faults.ts [--round bench/blind-faults/round-1] [--out FILE] [--only ID,ID]
 *                                 [--at COMMIT] [--jobs N] [--no-baseline]
 *
 * Writes bench/results/blind-faults-<round>.json (after every slip, so an interrupted round
 * keeps what it measured; `--only` re-runs some slips and keeps the others' lines).
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { parseArgs, promisify } from 'node:util';

import { catalogue } from '../spec/clauses/index.ts';
import {
  FAULT_CANDIDATE,
  baselineRun,
  commitOf,
  judgeAsCandidate,
  loadNow,
  ownFailures,
  removeCopy,
  root,
  scratchCopy,
  type Baseline,
} from './fault-run.ts';
import {
  catalogueLevels,
  firstPass,
  parseSlips,
  selectionOf,
  type Slip,
  type SlipStatus,
} from './blind-round.ts';

const { values } = parseArgs({
  options: {
    round: { type: 'string', default: join('bench', 'blind-faults', 'round-1') },
    out: { type: 'string' },
    only: { type: 'string' },
    jobs: { type: 'string' },
    at: { type: 'string', default: 'HEAD' },
    'no-baseline': { type: 'boolean' },
  },
});
/**
 * Every copy is of one commit's tree (`--at`, default HEAD when the round starts): others' edits
 * under way in the working tree never reach the suites judging a slip, and every slip and the
 * baseline are judged by the same suites.
 */
const commit = commitOf(values.at);

const roundDir = resolve(root, values.round);
const round = basename(roundDir);
const resultsFile = resolve(
  root,
  values.out ?? join('bench', 'results', `blind-faults-${round}.json`),
);
const slips = parseSlips(readFileSync(join(roundDir, 'slips.json'), 'utf8'));
const wanted = values.only?.split(',').map((s) => s.trim());
const unknownWanted = (wanted ?? []).filter((id) => !slips.some((s) => s.id === id));
if (unknownWanted.length > 0)
  throw new Error(`--only ${unknownWanted.join(', ')}: no such slip in ${values.round}/slips.json`);
const chosen = slips.filter((s) => wanted === undefined || wanted.includes(s.id));
const clauseIds = catalogue.map((c) => c.id);

interface SlipOutcome {
  readonly id: string;
  readonly section: string;
  readonly clauses: readonly string[];
  readonly level: Slip['level'];
  /** The catalogue's levels of its clauses, beside the author's tag. */
  readonly catalogueLevels: readonly string[];
  readonly description: string;
  readonly status: SlipStatus;
  /** The first stage's `--only` values (its clauses the catalogue holds). */
  readonly selection: readonly string[];
  /** Clause ids it names that the catalogue does not hold (left out of the selection). */
  readonly unknownClauses?: readonly string[];
  /** Failing tests that do not fail on the unbroken reference. */
  readonly failing: readonly string[];
  readonly failingUnbrokenToo?: number;
  readonly caughtIn?: 'selection' | 'rest of the suite';
  readonly pass?: number;
  readonly seconds?: number;
  readonly loadAverage?: number;
  readonly error?: string;
  readonly measuredAt: string;
}

async function applyPatch(dir: string, slip: Slip): Promise<void> {
  const patch = join(roundDir, slip.patch);
  if (!existsSync(patch)) throw new Error(`no patch file ${slip.patch} in ${values.round}`);
  try {
    await promisify(execFile)('git', ['apply', '--whitespace=nowarn', patch], { cwd: dir });
  } catch (error) {
    throw new Error(
      `git apply ${slip.patch}: ${(error as { stderr?: string }).stderr ?? String(error)}`,
    );
  }
}

let baseline: Baseline | undefined;
const started = Date.now();
const loadAtStart = loadNow();
if (values['no-baseline'] !== true) {
  baseline = await baselineRun(commit);
  console.log(
    `baseline (unbroken reference as a candidate): ${baseline.pass} pass, ${baseline.fail} fail`,
  );
  for (const f of baseline.failing) console.log(`  fails unbroken: ${f}`);
}

const outcomes: SlipOutcome[] = [];

async function judge(slip: Slip): Promise<void> {
  const { only, unknown } = selectionOf(slip, clauseIds);
  const named = {
    id: slip.id,
    section: slip.section,
    clauses: slip.clauses,
    level: slip.level,
    catalogueLevels: catalogueLevels(slip, catalogue),
    description: slip.description,
    selection: only,
    ...(unknown.length > 0 ? { unknownClauses: unknown } : {}),
  };
  const dir = scratchCopy(commit);
  let outcome: SlipOutcome;
  try {
    await applyPatch(dir, slip);
    const judged = await judgeAsCandidate(dir, only, baseline);
    const own = ownFailures(judged, baseline);
    outcome = {
      ...named,
      status: own.length > 0 ? 'caught' : 'missed',
      failing: own,
      ...(own.length < judged.failing.length
        ? { failingUnbrokenToo: judged.failing.length - own.length }
        : {}),
      ...(own.length > 0 && judged.caughtIn !== undefined ? { caughtIn: judged.caughtIn } : {}),
      pass: judged.pass,
      seconds: judged.seconds,
      loadAverage: judged.loadAverage,
      measuredAt: new Date().toISOString(),
    };
  } catch (error) {
    outcome = {
      ...named,
      status: 'error',
      failing: [],
      error: String(error).slice(0, 600),
      measuredAt: new Date().toISOString(),
    };
  } finally {
    removeCopy(dir);
  }
  outcomes.push(outcome);
  save();
  console.log(
    `${outcome.status.toUpperCase().padEnd(7)} ${slip.id} [${slip.level} ${slip.clauses.join(' ')}]${outcome.caughtIn !== undefined ? ` (${outcome.caughtIn})` : ''}${outcome.seconds !== undefined ? `, ${String(outcome.seconds)} s` : ''}${outcome.error !== undefined ? `: ${outcome.error.slice(0, 200)}` : ''}`,
  );
}

/** This run's outcomes, and an earlier file's for the slips not re-run (`--only`). */
function merged(): SlipOutcome[] {
  const order = new Map(slips.map((s, i) => [s.id, i]));
  const redone = new Set(outcomes.map((o) => o.id));
  const before =
    wanted !== undefined && existsSync(resultsFile)
      ? (JSON.parse(readFileSync(resultsFile, 'utf8')) as { outcomes: SlipOutcome[] }).outcomes
      : [];
  return [...before.filter((o) => order.has(o.id) && !redone.has(o.id)), ...outcomes].sort(
    (a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0),
  );
}

function save(): void {
  const all = merged();
  const loads = all.flatMap((o) => (o.loadAverage === undefined ? [] : [o.loadAverage]));
  mkdirSync(dirname(resultsFile), { recursive: true });
  writeFileSync(
    resultsFile,
    `${JSON.stringify(
      {
        round,
        measuredAt: new Date().toISOString(),
        commit,
        slips: slips.length,
        measured: all.length,
        judged: `each slip's patch applied to a copy of the reference, served announcing ${FAULT_CANDIDATE} (an outside candidate: probes only record); the whole suite in two stages stopping at the first failing test (eac run --bail): the slip's clause ids, then every area; missed only when the whole suite passes; tests failing on the unbroken reference count for no slip; a patch that does not apply or a server that does not start is an error, neither caught nor missed`,
        firstPass: firstPass(all),
        missed: all
          .filter((o) => o.status === 'missed')
          .map((o) => ({
            id: o.id,
            level: o.level,
            clauses: o.clauses,
            description: o.description,
          })),
        errors: all.filter((o) => o.status === 'error').map((o) => o.id),
        ...(baseline !== undefined ? { baseline } : {}),
        seconds: Math.round((Date.now() - started) / 1000),
        loadAverage: {
          atStart: loadAtStart,
          atEnd: loadNow(),
          meanAtSlipStart:
            loads.length === 0
              ? null
              : Math.round((loads.reduce((a, b) => a + b, 0) / loads.length) * 10) / 10,
        },
        cores: availableParallelism(),
        outcomes: all,
      },
      null,
      2,
    )}\n`,
  );
}

/** `--jobs N` judges N slips at once, each in its own copy with its own server (default 1). */
const jobs = Math.max(1, Number.parseInt(values.jobs ?? '1', 10) || 1);
const queue = [...chosen];
await Promise.all(
  Array.from({ length: Math.min(jobs, queue.length) }, async () => {
    for (let s = queue.shift(); s !== undefined; s = queue.shift()) await judge(s);
  }),
);
save();
const { overall, mustOrObserved } = firstPass(merged());
const pct = (r: { rate: number | null }) =>
  r.rate === null ? 'n/a' : `${String(Math.round(r.rate * 1000) / 10)}%`;
console.log(
  `\n${round}: caught ${String(overall.caught)}/${String(overall.judged)} (${pct(overall)}), must/observed ${String(mustOrObserved.caught)}/${String(mustOrObserved.judged)} (${pct(mustOrObserved)}), errors ${String(overall.errors)}`,
);
for (const o of merged().filter((x) => x.status === 'missed'))
  console.log(`  missed: ${o.id} [${o.level} ${o.clauses.join(' ')}] ${o.description}`);
console.log(`written to ${resultsFile}`);
