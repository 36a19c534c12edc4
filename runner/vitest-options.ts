/**
 * What every vitest the kit starts is told besides its project (eac run, and the collection
 * behind doctor and the citations check), so that it writes nothing where the kit is
 * installed: neither inside the kit's own folder nor in the user's node_modules.
 *
 * - `cache: false`: vitest's results cache (`<root>/node_modules/.vite/vitest/.../results.json`,
 *   the root being the kit's folder) only orders the next run's files, failed and longest
 *   first. Without it they run largest file first, the same order on every run and on every
 *   machine, as in a fresh clone or CI, where there is no cache to read anyway. A cache folder
 *   elsewhere (the report folder, the OS's temporary folder) would keep the writes and make
 *   the order depend on the run before.
 * - `configLoader: 'runner'`: vite's default loader bundles vitest.config.ts into
 *   `.vite-temp/` of the nearest node_modules (the user's, when the kit's package has none of
 *   its own) and leaves that folder behind; the runner loader evaluates it in memory.
 */
export const WRITES_NOTHING = { cache: false, configLoader: 'runner' } as const;
