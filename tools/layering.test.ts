import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The layering is the project's own lint (eslint.config.js), not a drawing: these plant an
// import where the map forbids it and see the lint refuse it, and plant an allowed one beside
// it and see the lint take it.

const root = path.resolve(import.meta.dirname, '..');
// Only the import rule, without the type-aware parsing the other rules need (a planted file is
// in no TypeScript project, and the import rule reads no types).
const eslint = new ESLint({
  cwd: root,
  ruleFilter: ({ ruleId }) =>
    ruleId === 'no-restricted-imports' || ruleId === '@typescript-eslint/no-restricted-imports',
  overrideConfig: { languageOptions: { parserOptions: { projectService: false, project: null } } },
});

/** The no-restricted-imports messages the lint gives `source` as if it were the file `at`. */
async function refusals(at: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: path.join(root, at) });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId?.endsWith('no-restricted-imports'))
    .map((m) => m.message);
}

const importing = (specifier: string) =>
  `import * as planted from '${specifier}';\nexport const used = planted;\n`;

describe('the import boundaries are enforced by the lint', () => {
  it.each([
    ['reference/store/planted.ts', '../http/roles.ts', 'run downward'],
    ['reference/data/planted.ts', '../store/store.ts', 'run downward'],
    ['reference/chat/planted.ts', '../hooks/routes.ts', 'run downward'],
    ['latitude/planted.ts', '../runner/target.ts', 'allow-list'],
    ['latitude/planted.ts', '../reference/store/store.ts', 'allow-list'],
    ['tools/planted.ts', '../suites/identity/users.test.ts', 'allow-list'],
    ['tools/variants/planted.ts', '../../latitude/proxy.ts', 'allow-list'],
    ['bench/planted.ts', '../runner/run.ts', 'allow-list'],
    // An area's kit serves that area alone, and nothing of the harness leans on an area.
    ['suites/security/planted.ts', '../chat/kit.ts', 'imports only itself'],
    ['suites/harness/planted.ts', '../hub/kit.ts', 'imports none of them'],
    ['suites/harness/given/planted.ts', '../../migration/kit.ts', 'imports none of them'],
    ['suites/chat/kit.ts', './rows.test.ts', "below the area's tests"],
    // The harness's root is below its world builders.
    ['suites/harness/planted.ts', './given/accounts.ts', 'only types from given/'],
  ])('%s may not import %s', async (at, specifier, said) => {
    const messages = await refusals(at, importing(specifier));
    expect(messages.join('\n')).toContain(said);
  });

  it.each([
    ['reference/http/planted.ts', '../store/store.ts'],
    ['reference/store/planted.ts', '../data/database.ts'],
    ['latitude/planted.ts', '../spec/latitude.ts'],
    ['latitude/planted.ts', '../reference/server.ts'],
    ['tools/planted.ts', '../runner/target.ts'],
    ['bench/planted.ts', '../reference/data/seed.ts'],
    ['suites/chat/planted.ts', './kit.ts'],
    ['suites/harness/given/planted.ts', '../builders.ts'],
    ['tools/planted.ts', '../suites/harness/sse.ts'],
  ])('%s may import %s', async (at, specifier) => {
    expect(await refusals(at, importing(specifier))).toEqual([]);
  });

  it('suites/harness may take a type from given/', async () => {
    const source = `import type { World } from './given/accounts.ts';\nexport type Used = World;\n`;
    expect(await refusals('suites/harness/planted.ts', source)).toEqual([]);
  });
});
