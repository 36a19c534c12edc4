import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// The examples on their own: `npx vitest run --config examples/vitest.config.ts`. Each runs a
// slice of the suites through the library API, so they are slow for a unit test.
export default defineConfig({
  test: {
    name: 'examples',
    root: fileURLToPath(new URL('..', import.meta.url)),
    include: ['examples/**/*.test.ts'],
    environment: 'node',
    testTimeout: 180_000,
  },
});
