// ESLint flat config: typed rules plus the import boundaries of ARCHITECTURE.md.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { readdirSync } from 'node:fs';

/** Imports a folder may not make, as `no-restricted-imports` patterns (gitignore syntax). */
const boundary = (patterns, message) => ['error', { patterns: [{ group: patterns, message }] }];

/**
 * The oracle rule (README, Layout): suites and fixtures judge servers we did not write, so no
 * expected value may come from code the reference runs. From spec/ they take clause ids,
 * response-shape schemas and types; lifetimes, flags, defaults and codes come from
 * fixtures/oracles (written from the document). Model-based files may use the machines.
 */
const ORACLE =
  'an expected value must not come from code the reference runs: use fixtures/oracles (or spell it out)';
const oracleRule = ({ machines, more = [] }) => [
  'error',
  {
    patterns: [
      ...more,
      {
        group: ['**/spec/schemas/common.ts', '**/spec/schemas/common'],
        importNames: ['EXPIRATIONS', 'EXPIRATION_SECONDS', 'DEFAULT_EXPIRATION', 'Expiration'],
        allowTypeImports: true,
        message: ORACLE,
      },
      ...(machines
        ? []
        : [
            {
              group: ['**/spec/schemas/permissions.ts', '**/spec/schemas/permissions'],
              importNames: ['PERMISSION_FLAGS'],
              allowTypeImports: true,
              message: ORACLE,
            },
            {
              group: ['**/spec/machines/**'],
              allowTypeImports: true,
              message: `${ORACLE}; the machines are the model of model-based runs only (model*.test.ts)`,
            },
          ]),
      {
        group: ['**/spec/errors.ts', '**/spec/errors'],
        allowTypeImports: true,
        message: `${ORACLE}: the §7 codes are expectedErrors and documentedStatus()`,
      },
    ],
  },
];

/**
 * The suites' areas (every folder of suites/ but the harness): an area imports only itself,
 * suites/harness, spec/, fixtures/ and packages, and the harness imports no area, so what two
 * areas share lives in suites/harness (its world builders in suites/harness/given/) and what
 * one area alone uses lives in that area (its kit, suites/<area>/kit.ts, which imports none of
 * the area's tests).
 */
const AREAS = readdirSync(new URL('./suites/', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && entry.name !== 'harness')
  .map((entry) => entry.name);
const intoAreas = (areas, message) => ({
  regex: `^(\\.\\./)+(suites/)?(${areas.join('|')})/`,
  message,
});
// A later block setting no-restricted-imports replaces the suites block's, so these carry its
// reference boundary too.
const SUITES_REFERENCE = {
  group: ['**/reference/**'],
  message: 'suites talk to a target over HTTP only',
};
const areaPatterns = (area) => [
  SUITES_REFERENCE,
  intoAreas(
    AREAS.filter((other) => other !== area),
    `suites/${area} imports only itself, suites/harness, spec/ and fixtures/: move what areas share into suites/harness`,
  ),
];
const areaBlocks = [
  ...AREAS.map((area) => ({
    files: [`suites/${area}/**`],
    rules: { 'no-restricted-imports': ['error', { patterns: areaPatterns(area) }] },
  })),
  ...AREAS.map((area) => ({
    files: [`suites/${area}/kit.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...areaPatterns(area),
            {
              group: ['./*.test.ts', './*.test'],
              message: `suites/${area}/kit.ts is below the area's tests: it imports none of them`,
            },
          ],
        },
      ],
    },
  })),
  {
    files: ['suites/harness/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            SUITES_REFERENCE,
            intoAreas(AREAS, 'suites/harness is shared by every area and imports none of them'),
          ],
        },
      ],
    },
  },
];

/** What the harness's root may not take from its world builders: anything but types. */
const GIVEN = {
  group: ['./given/*'],
  allowTypeImports: true,
  message:
    'suites/harness is below its world builders (given/ builds on it): it imports only types from given/',
};

/** The kit's top-level rooms: an import into one of them is one of ours. */
const ROOMS = [
  'spec',
  'reference',
  'suites',
  'runner',
  'reports',
  'latitude',
  'lib',
  'bin',
  'bench',
  'tools',
  'fixtures',
];

/**
 * An allow-list for a room of tools around the kit: it may import the rooms in `rooms` whole
 * and, of the others, only the files in `files` (paths from the repository's root). Anything
 * else of ours is refused, so a new reach into the reference or the runner is a decision made
 * here, in the open.
 */
const escaped = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const allowOnly = (room, { rooms = [], files = [] }) => {
  const others = ROOMS.filter((r) => r !== room && !rooms.includes(r));
  const allowed = files.length === 0 ? '' : `(?!(?:${files.map(escaped).join('|')})$)`;
  return {
    files: [`${room}/**`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `^(?:\\.\\./)+${allowed}(?:${others.join('|')})/`,
              message: `${room}/ imports only what its allow-list in eslint.config.js names`,
            },
          ],
        },
      ],
    },
  };
};

/**
 * The reference's floors (ARCHITECTURE): the entry modules (http routes, host hooks, hub pages)
 * on top, the store and the domain modules beside it (chat, charts, tokens, tenants) below,
 * data at the bottom. A module imports its own floor or lower, never up.
 */
const REFERENCE_TOP = ['http', 'hooks', 'hub'];
const REFERENCE_MIDDLE = ['store', 'chat', 'charts', 'tokens', 'tenants'];
const floor = (dirs, above) => ({
  files: dirs.map((dir) => `reference/${dir}/**`),
  ignores: ['**/*.test.ts'],
  rules: {
    'no-restricted-imports': boundary(
      above.flatMap((dir) => [`../${dir}/*`, `../../${dir}/*`, `**/reference/${dir}/**`]),
      "the reference's imports run downward: http, hooks, hub -> store, chat, charts, tokens, tenants -> data",
    ),
  },
});

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      'reports/runs/**',
      'reports/latest/**',
      '.eac-tmp/**',
      'spec/types/*.d.ts',
      'bin/*.mjs',
      'lib/*.mjs',
      // Plain JavaScript that Node loads without tsx (a Stryker plugin).
      'tools/mutation/*.mjs',
      'dist/**',
      'eslint.config.js',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
    },
  },
  {
    // spec/ is the contract: it imports nothing of ours.
    files: ['spec/**'],
    rules: {
      'no-restricted-imports': boundary(
        [
          '**/reference/**',
          '**/suites/**',
          '**/fixtures/**',
          '**/bin/**',
          '**/bench/**',
          '**/tools/**',
        ],
        'spec/ imports nothing of ours',
      ),
    },
  },
  {
    // The suites and their fixtures reach a target over HTTP only, and take no expected value
    // from code the reference runs.
    files: ['suites/**', 'fixtures/**'],
    rules: {
      'no-restricted-imports': boundary(
        ['**/reference/**'],
        'suites talk to a target over HTTP only',
      ),
      '@typescript-eslint/no-restricted-imports': oracleRule({ machines: false }),
    },
  },
  {
    // Model-based runs check the target step by step against the machines (ARCHITECTURE),
    // and given/model-world.ts builds the worlds and commands only they share.
    files: ['suites/**/model*.test.ts', 'suites/harness/given/model-world.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': oracleRule({ machines: true }) },
  },
  {
    // The harness's root is below its world builders: given/ builds on it, so it takes only
    // types from given/ (a World to read back), never a builder.
    files: ['suites/harness/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': oracleRule({ machines: false, more: [GIVEN] }),
    },
  },
  {
    files: ['suites/harness/model*.test.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': oracleRule({ machines: true, more: [GIVEN] }),
    },
  },
  {
    // Reports are made from results: nothing of the reference's code reaches them.
    files: ['reports/**'],
    rules: {
      'no-restricted-imports': boundary(
        ['**/reference/**'],
        'reports read results, not the reference',
      ),
    },
  },
  {
    // The runner alone may start the embedded reference, through its public server module.
    files: ['runner/**'],
    rules: {
      'no-restricted-imports': boundary(
        ['**/reference/**', '!**/reference/server.ts'],
        'only reference/server.ts is public',
      ),
    },
  },
  ...areaBlocks,
  floor(REFERENCE_MIDDLE, REFERENCE_TOP),
  floor(['data'], [...REFERENCE_TOP, ...REFERENCE_MIDDLE]),
  allowOnly('latitude', {
    rooms: ['spec'],
    files: [
      'reference/server.ts',
      'suites/harness/random.ts',
      // Its tests read the reference's pages and streams with the suites' own readers.
      'reference/hub/html.ts',
      'reference/hub/page.ts',
      'reference/hub/query.ts',
      // The reader of the pages' HTML that the reference's own page tests use too.
      'fixtures/pages/html-reader.ts',
      'suites/harness/event-sequence.ts',
      'suites/harness/sse.ts',
    ],
  }),
  allowOnly('bench', {
    rooms: ['spec'],
    files: [
      'reference/server.ts',
      'reference/chat/agent.ts',
      'reference/data/database.ts',
      'reference/data/seed.ts',
      'reference/data/sql.ts',
      'reports/outline.ts',
      'reports/schema.ts',
    ],
  }),
  allowOnly('tools', {
    rooms: ['spec'],
    files: [
      'bin/source-hash.mjs',
      // The stream recorder (tools/record-streams.ts) writes golden streams read as the suites read them.
      'fixtures/streams/golden.ts',
      'reference/server.ts',
      'reports/compare.ts',
      'reports/flaky.ts',
      'reports/not-run.ts',
      'runner/args.ts',
      'runner/cli.ts',
      'runner/only.ts',
      'runner/serve.ts',
      'runner/target.ts',
      'suites/concurrency/workload.ts',
      'suites/harness/event-sequence.ts',
      'suites/harness/given/accounts.ts',
      'suites/harness/sse.ts',
      'suites/harness/stated-endpoint.ts',
      'suites/harness/target.ts',
      'suites/robustness/generate.ts',
      'suites/robustness/world.ts',
    ],
  }),
);
