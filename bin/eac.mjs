#!/usr/bin/env node
// Package bin. Runs the bundled CLI in dist/ (`npm run build`) when it was built from the
// sources as they are now, else the TypeScript sources through tsx: a stale or missing bundle
// costs start-up time, never a wrong answer. EAC_BUNDLE=0 forces the sources; EAC_BUNDLE=1
// insists on the bundle (exit 2 when it is stale or missing), for benchmarks and CI.
import { pathToFileURL } from 'node:url';
import { bundleIsFresh, CLI_BUNDLE } from './source-hash.mjs';

const wanted = process.env.EAC_BUNDLE;
const fresh = wanted !== '0' && bundleIsFresh();
if (fresh) {
  await import(pathToFileURL(CLI_BUNDLE).href);
} else if (wanted === '1') {
  process.stderr.write(
    'eac: EAC_BUNDLE=1 but dist/ is missing or was built from other sources; run `npm run build`\n',
  );
  process.exitCode = 2;
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('./eac.ts');
}
