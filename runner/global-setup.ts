/**
 * Vitest global setup of the conformance project: gives every test the Target.
 * `eac run` resolves the target itself and passes it in `EAC_TARGET`; a bare
 * `vitest --project conformance` gets the embedded reference, started here.
 */
import type { TestProject } from 'vitest/node';
import { parseSeed, randomSeed, startEmbedded, targetFromEnv } from './target.ts';

/** What `eac run` puts in `EAC_REPLAY_ARGS`: the arguments a replay line keeps. */
export function replayArgsFromEnv(json: string | undefined): string[] {
  if (json === undefined || json.trim() === '') return [];
  const data: unknown = JSON.parse(json);
  return Array.isArray(data) ? data.filter((a): a is string => typeof a === 'string') : [];
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  project.provide('eacReplayArgs', replayArgsFromEnv(process.env['EAC_REPLAY_ARGS']));
  const envSeed = process.env['EAC_SEED'];
  const seed = envSeed !== undefined && envSeed !== '' ? parseSeed(envSeed, 'EAC_SEED') : undefined;
  const given = targetFromEnv(process.env['EAC_TARGET'], seed);
  if (given !== undefined) {
    project.provide('eacTarget', given);
    return () => Promise.resolve();
  }
  const embedded = await startEmbedded(seed ?? randomSeed());
  project.provide('eacTarget', embedded.target);
  return () => embedded.close();
}
