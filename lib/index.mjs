// Package entry for plain `node` consumers (`import { runConformance } from
// 'eac-conformance-kit'`): the library as the bundle dist/eac.cjs holds it when `npm run build`
// made it from the sources as they are now (what an installed kit runs), else the TypeScript
// entry through tsx, loaded for this import only (tsImport, no global hook). EAC_BUNDLE=0
// forces the sources. Types: lib/index.ts (package.json "types").
import { createRequire } from 'node:module';
import { bundleIsFresh, CLI_BUNDLE, sourcesLoader } from '../bin/source-hash.mjs';

async function load() {
  const forced = process.env.EAC_BUNDLE === '0';
  if (!forced && bundleIsFresh()) return createRequire(import.meta.url)(CLI_BUNDLE).loadLibrary();
  const tsx = await sourcesLoader(forced);
  if (tsx === undefined)
    throw new Error('eac-conformance-kit: no usable bundle and no tsx (above)');
  return tsx.tsImport('./index.ts', import.meta.url);
}

const lib = await load();

export const { runConformance, ConformanceError } = lib;
