/**
 * CI's verdict on a run through the latitude proxy (`eac run --latitude ...`): the kit's checks
 * must hold on every server the document allows, so the run must end with
 * - no fail and no probe-error;
 * - no not-run that the same tests did not also end with against the reference itself (the
 *   baseline run), unless its reason names a profile entry the printed profile leaves out on
 *   purpose (the key set under tokens.hs256), or the capability `agent-grammar` that the second
 *   chat agent (chat.second-agent) does not announce;
 * - every chosen entry of the catalogue having changed at least one answer (latitude.json).
 *
 *   npx tsx tools/latitude-check.ts RUN [--baseline RUN]
 *
 * Exit 0 when all hold, 1 otherwise (each breach printed), 2 on bad arguments.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { RELIANCE, unstatedReliances } from '../spec/reliance.ts';
import { TargetProfile } from '../spec/profile.ts';
import { readRun } from '../reports/compare.ts';
import { REFERENCE_PROFILE_FILE } from '../runner/target.ts';

const { values, positionals } = parseArgs({
  options: { baseline: { type: 'string' } },
  allowPositionals: true,
});
const [runArg] = positionals;
if (runArg === undefined) {
  process.stderr.write('usage: latitude-check RUN [--baseline RUN]\n');
  process.exit(2);
}

const reference = TargetProfile.parse(JSON.parse(await readFile(REFERENCE_PROFILE_FILE, 'utf8')));

const { run } = await readRun(runArg);
const runDir = runArg.endsWith('.json') ? path.dirname(runArg) : runArg;
const breaches: string[] = [];
const { summary } = run;
if (summary.fail > 0)
  for (const r of run.results.filter((x) => x.outcome === 'fail'))
    breaches.push(`fail: ${r.id}: ${(r.reason ?? '').split('\n')[0]}`);
for (const r of run.results.filter((x) => x.outcome === 'probe-error')) {
  const broke = r.observations?.find((o) => o.kind === 'probe-error')?.observation ?? r.reason;
  breaches.push(`probe-error: ${r.id}: ${(broke ?? '').split('\n')[0]}`);
}

let latitude: { idle?: string[]; profile?: unknown; chosen?: string[] } = {};
try {
  latitude = JSON.parse(
    await readFile(path.join(runDir, 'latitude.json'), 'utf8'),
  ) as typeof latitude;
} catch {
  breaches.push(`no latitude.json in ${runDir}: was the run made with --latitude?`);
}
/**
 * What the printed profile explains: the reliances it leaves unstated where the reference's
 * own profile states them (a transform took them away), and the key set it no longer names.
 */
const printed = TargetProfile.safeParse(latitude.profile);
const taken = printed.success
  ? unstatedReliances(printed.data, Object.keys(RELIANCE)).filter(
      (entry) => !unstatedReliances(reference, [entry.split(' ')[0] ?? '']).length,
    )
  : [];
const EXPLAINED = [
  ...taken.map((entry) => new RegExp(`\\b${(entry.split(' ')[0] ?? '').replace(/\./g, '\\.')}\\b`)),
  ...(printed.success &&
  printed.data.shapes.jwks === undefined &&
  reference.shapes.jwks !== undefined
    ? [/\bJWKS\b/]
    : []),
  // The second chat agent reads no grammar the suites could predict and does not announce the
  // capability: the tests of our grammar's vocabulary end not-run naming it, as on any agent.
  ...(latitude.chosen?.includes('chat.second-agent') === true ? [/\bagent-grammar\b/] : []),
];

const baselineNotRun = new Set<string>();
if (values.baseline !== undefined) {
  const base = await readRun(values.baseline);
  for (const r of base.run.results) if (r.outcome === 'not-run') baselineNotRun.add(r.id);
}
const explained: string[] = [];
for (const r of run.results.filter((x) => x.outcome === 'not-run')) {
  if (baselineNotRun.has(r.id)) continue;
  if (EXPLAINED.some((re) => re.test(r.reason ?? ''))) {
    explained.push(`${r.id}: ${r.reason ?? ''}`);
    continue;
  }
  breaches.push(`not-run the printed profile does not explain: ${r.id}: ${r.reason ?? ''}`);
}

for (const id of latitude.idle ?? []) breaches.push(`latitude entry changed no answer: ${id}`);

process.stdout.write(
  `latitude check: ${summary.pass} pass, ${summary.fail} fail, ${summary.notRun} not-run (${explained.length} explained by the printed profile), ${summary.probe} probe, ${summary.probeErrors} probe-error\n`,
);
for (const line of explained) process.stdout.write(`  explained: ${line.split('\n')[0]}\n`);
if (breaches.length > 0) {
  process.stdout.write(`${breaches.length} breach${breaches.length === 1 ? '' : 'es'}:\n`);
  for (const b of breaches) process.stdout.write(`  ✗ ${b}\n`);
  process.exit(1);
}
