/**
 * Runs the whole suite against a server kept in candidates/ (one written from the document and
 * our user docs alone, by an author who never read the suites), with the profile its author
 * wrote, as CI does: conformance suites earn trust by running on more than one implementation.
 *
 *   npx tsx tools/candidate-run.ts [NAME] [--report DIR]
 *
 * NAME is the folder under candidates/ (blind-1 by default); it holds server.ts, which prints
 * one JSON line {url, hubUrl, hooksUrl} once listening, and profile.json. The verdict: no fail
 * and no probe-error (each printed); the not-runs are listed by cause. Exit 0 when it holds, 1
 * otherwise, 2 when the candidate does not start.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { readRun } from '../reports/compare.ts';
import { startCandidate, type Candidate } from './candidate.ts';

const root = path.resolve(import.meta.dirname, '..');
const { values, positionals } = parseArgs({
  options: { report: { type: 'string' } },
  allowPositionals: true,
});
const name = positionals[0] ?? 'blind-1';
const folder = path.join(root, 'candidates', name);
const report = path.resolve(values.report ?? path.join(root, 'reports', 'runs', name));
if (!existsSync(path.join(folder, 'server.ts'))) {
  process.stderr.write(`candidate-run: no candidates/${name}/server.ts\n`);
  process.exit(2);
}

let started: Candidate;
try {
  started = await startCandidate(folder, name);
} catch (error) {
  process.stderr.write(
    `candidate-run: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(2);
}
const { at } = started;
const args = [
  '--import',
  'tsx',
  path.join(root, 'bin', 'eac.ts'),
  'run',
  '--target',
  at.url,
  '--hub',
  at.hubUrl,
  '--hooks',
  at.hooksUrl,
  '--profile',
  path.join(folder, 'profile.json'),
  '--quiet-progress',
  '--report',
  report,
];
process.stdout.write(`candidate ${name}: npx eac ${args.slice(3).join(' ')}\n`);
const run = spawn(process.execPath, args, { cwd: root, stdio: 'inherit' });
const [code] = (await once(run, 'exit')) as [number | null];
await started.stop();

const { run: results } = await readRun(path.join(report, 'latest'));
const breaches = results.results
  .filter((r) => r.outcome === 'fail' || r.outcome === 'probe-error')
  .map((r) => `${r.outcome}: ${r.id}: ${(r.reason ?? '').split('\n')[0] ?? ''}`);
const s = results.summary;
process.stdout.write(
  `candidate ${name}: ${s.pass} pass, ${s.fail} fail, ${s.notRun} not-run, ${s.probe} probe, ${s.probeErrors ?? 0} probe-error (eac run exited ${String(code)})\n`,
);
for (const b of breaches) process.stdout.write(`  ${b}\n`);
process.exit(breaches.length > 0 ? 1 : 0);
