/**
 * Vitest global setup of the conformance project: gives every test the Target, the replay
 * arguments and the report folder. `eac run` resolves the target itself and hands all three
 * over once, in `EAC_RUN`; a bare `vitest --project conformance` gets the embedded reference,
 * started here (seeded by `EAC_SEED` when set).
 */
import type { TestProject } from 'vitest/node';
import { handOverFromEnv, parseSeed, randomSeed, startEmbedded } from './target.ts';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const given = handOverFromEnv(process.env['EAC_RUN']);
  if (given !== undefined) {
    project.provide('eacTarget', given.target);
    project.provide('eacReplayArgs', [...given.replayArgs]);
    if (given.reportDir !== undefined) project.provide('eacReportDir', given.reportDir);
    return () => Promise.resolve();
  }
  const envSeed = process.env['EAC_SEED'];
  const seed = envSeed !== undefined && envSeed !== '' ? parseSeed(envSeed, 'EAC_SEED') : undefined;
  const embedded = await startEmbedded(seed ?? randomSeed());
  project.provide('eacTarget', embedded.target);
  project.provide('eacReplayArgs', []);
  return () => embedded.close();
}
