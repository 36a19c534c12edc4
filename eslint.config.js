// ESLint flat config: typed rules plus the import boundaries of ARCHITECTURE.md.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** Imports a folder may not make, as `no-restricted-imports` patterns (gitignore syntax). */
const boundary = (patterns, message) => ['error', { patterns: [{ group: patterns, message }] }];

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      'reports/runs/**',
      'reports/latest/**',
      '.eac-tmp/**',
      'spec/types/*.d.ts',
      'bin/eac.mjs',
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
    // The suites and their fixtures reach a target over HTTP only.
    files: ['suites/**', 'fixtures/**'],
    ignores: ['suites/runner/**'],
    rules: {
      'no-restricted-imports': boundary(
        ['**/reference/**'],
        'suites talk to a target over HTTP only',
      ),
    },
  },
  {
    // The runner alone may start the embedded reference, through its public server module.
    files: ['suites/runner/**'],
    rules: {
      'no-restricted-imports': boundary(
        ['**/reference/**', '!**/reference/server.ts'],
        'only reference/server.ts is public',
      ),
    },
  },
);
