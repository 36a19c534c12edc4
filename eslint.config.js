// ESLint flat config: typed rules plus the import boundaries of ARCHITECTURE.md.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';

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
    plugins: { 'import-x': importX },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      // Boundaries: spec/ is the contract and imports nothing of ours; the suites reach a
      // target only over HTTP, so only suites/runner may start the reference, and only
      // through its public entry point.
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './spec',
              from: ['./reference', './suites', './fixtures', './bin', './bench'],
              message: 'spec/ imports nothing of ours',
            },
            {
              target: './suites',
              from: './reference',
              except: [],
              message: 'suites talk to a target over HTTP only',
            },
            {
              target: './fixtures',
              from: './reference',
              message: 'fixtures build worlds over HTTP only',
            },
          ],
        },
      ],
    },
  },
  {
    // The runner alone may start the embedded reference, through its public server module.
    files: ['suites/runner/**'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './suites/runner',
              from: './reference',
              except: ['./server.ts'],
              message: 'only reference/server.ts is public',
            },
          ],
        },
      ],
    },
  },
);
