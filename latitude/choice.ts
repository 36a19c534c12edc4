import { FREEDOM_IDS, LATITUDE, type Freedom, type FreedomId } from '../spec/latitude.ts';
import { seeded } from '../suites/harness/random.ts';

/**
 * Which freedoms a latitude run takes: every entry, a seeded random half, or the named ones.
 * Written `all`, `random:SEED` or `id,id` on the command line.
 */
export type LatitudeVary = 'all' | { readonly random: number } | readonly FreedomId[];

/**
 * Names a behaviour entry may go by on the command line besides its id, written as the switch
 * they set: `agent=second` is `chat.second-agent`.
 */
export const ALIASES: Readonly<Record<string, FreedomId>> = {
  'agent=second': 'chat.second-agent',
};

/** Parses `--vary` / `--latitude`; throws an Error naming the bad part. */
export function parseVary(text: string): LatitudeVary {
  const value = text.trim();
  if (value === 'all') return 'all';
  const random = /^random:(\d+)$/.exec(value);
  if (random !== null) {
    const seed = Number(random[1]);
    if (!Number.isSafeInteger(seed) || seed > 0xffffffff)
      throw new Error(`random:SEED takes a seed from 0 to 4294967295, got "${random[1]}"`);
    return { random: seed };
  }
  const ids = value.split(',').map((id) => {
    const named = id.trim();
    return ALIASES[named] ?? named;
  });
  const unknown = ids.filter((id) => !(FREEDOM_IDS as readonly string[]).includes(id));
  if (value === '' || unknown.length > 0)
    throw new Error(
      `"${unknown.join(', ') || value}" is not all, random:SEED or a list of catalogue ids (${FREEDOM_IDS.join(', ')}) or their aliases (${Object.keys(ALIASES).join(', ')})`,
    );
  return ids as FreedomId[];
}

/**
 * The catalogue ids a choice takes, in catalogue order. A random half is never empty. An entry
 * that another chosen entry excludes (two answers to one open point) is set aside.
 */
export function chosenIds(vary: LatitudeVary): FreedomId[] {
  return withoutExcluded(pickedIds(vary));
}

function pickedIds(vary: LatitudeVary): FreedomId[] {
  if (vary === 'all') return [...FREEDOM_IDS];
  if (Array.isArray(vary)) return FREEDOM_IDS.filter((id) => vary.includes(id));
  const next = seeded((vary as { random: number }).random);
  const picked = FREEDOM_IDS.filter(() => next() < 0.5);
  return picked.length > 0 ? picked : [FREEDOM_IDS[Math.floor(next() * FREEDOM_IDS.length)]!];
}

function withoutExcluded(ids: readonly FreedomId[]): FreedomId[] {
  const excluded = new Set(
    LATITUDE.filter((f: Freedom) => ids.includes(f.id as FreedomId)).flatMap(
      (f: Freedom) => f.excludes ?? [],
    ),
  );
  return ids.filter((id) => !excluded.has(id));
}

/** The behaviour entries of a choice: what the reference takes through its start-up switch. */
export function behaviourIds(ids: readonly FreedomId[]): FreedomId[] {
  const behaviours = new Set<string>(
    LATITUDE.filter((f) => f.kind === 'behaviour').map((f) => f.id),
  );
  return ids.filter((id) => behaviours.has(id));
}

/** How a choice reads on the command line. */
export function varyText(vary: LatitudeVary): string {
  if (vary === 'all') return 'all';
  if (Array.isArray(vary)) return vary.join(',');
  return `random:${(vary as { random: number }).random}`;
}
