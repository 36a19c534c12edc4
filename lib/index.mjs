// Package entry for plain `node` consumers (`import { runConformance } from 'eac'`): the
// bundle dist/lib.mjs when `npm run build` made one from the sources as they are now, else
// the TypeScript entry through tsx, loaded for this import only (tsImport, no global hook).
// Types: lib/index.ts (package.json "types").
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { bundleIsFresh, DIST } from '../bin/source-hash.mjs';

const bundle = path.join(DIST, 'lib.mjs');
const lib =
  process.env.EAC_BUNDLE !== '0' && existsSync(bundle) && bundleIsFresh()
    ? await import(pathToFileURL(bundle).href)
    : await (await import('tsx/esm/api')).tsImport('./index.ts', import.meta.url);

export const { runConformance, ConformanceError } = lib;
