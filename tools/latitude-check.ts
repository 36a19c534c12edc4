/**
 * CI's verdict on a run through the latitude proxy (`eac run --latitude ...`): the kit's checks
 * must hold on every server the document allows, so the run must end with
 * - no fail and no probe-error;
 * - no not-run that the same tests did not also end with against the reference itself (the
 *   baseline run), unless it waits on a profile entry the printed profile leaves out on
 *   purpose (the key set under tokens.hs256), or on the capability `agent-grammar` that the
 *   second chat agent (chat.second-agent) does not announce;
 * - every chosen entry of the catalogue having changed at least one answer (latitude.json).
 *
 *   npx tsx tools/latitude-check.ts RUN [--baseline RUN]
 *
 * Exit 0 when all hold, 1 otherwise (each breach printed), 2 on bad arguments.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { RELIANCE, unstatedEntries } from '../spec/reliance.ts';
import { causesOfResult } from '../reports/not-run.ts';
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
  ? unstatedEntries(printed.data, Object.keys(RELIANCE)).filter(
      (u) => unstatedEntries(reference, [u.clause]).length === 0,
    )
  : [];
/** The entries whose not-runs the printed profile explains (a cause's entry, or one under it). */
const EXPLAINED = [
  ...taken.map((u) => (u.follows ? `follows:${u.clause}` : u.entry)),
  ...(printed.success &&
  printed.data.shapes.jwks === undefined &&
  reference.shapes.jwks !== undefined
    ? ['shapes.jwks']
    : []),
  // The second chat agent reads no grammar the suites could predict and does not announce the
  // capability: the tests of our grammar's vocabulary end not-run naming it, as on any agent.
  // (a gap of the document: partial.form.chat-words).
  ...(latitude.chosen?.includes('chat.second-agent') === true ? ['partial.form.chat-words'] : []),
  // A token signed with a shared secret publishes no key for the attacks that need one.
  ...(latitude.chosen?.includes('tokens.hs256') === true ? ['not-shown.jwt-contents'] : []),
];
const explains = (entry: string) => EXPLAINED.some((e) => entry === e || entry.startsWith(`${e}.`));

const baselineNotRun = new Set<string>();
if (values.baseline !== undefined) {
  const base = await readRun(values.baseline);
  for (const r of base.run.results) if (r.outcome === 'not-run') baselineNotRun.add(r.id);
}
const explained: string[] = [];
for (const r of run.results.filter((x) => x.outcome === 'not-run')) {
  if (baselineNotRun.has(r.id)) continue;
  if (causesOfResult(r).some((c) => explains(c.entry))) {
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
