// Package entry for plain `node` consumers (`import { runConformance } from
// 'eac-conformance-kit'`): the library as the bundle dist/eac.cjs holds it when `npm run build`
// made it from the sources as they are now (what an installed kit runs), else the TypeScript
// entry through tsx, loaded for this import only (tsImport, no global hook). EAC_BUNDLE=0
// forces the sources. Types: lib/index.ts (package.json "types").
import { createRequire } from 'node:module';
import { bundleIsFresh, CLI_BUNDLE } from '../bin/source-hash.mjs';

const lib =
  process.env.EAC_BUNDLE !== '0' && bundleIsFresh()
    ? await createRequire(import.meta.url)(CLI_BUNDLE).loadLibrary()
    : await (await import('tsx/esm/api')).tsImport('./index.ts', import.meta.url);

export const { runConformance, ConformanceError } = lib;
