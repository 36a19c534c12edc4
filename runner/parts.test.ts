import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from './cli.ts';
import { missingPart, PARTS } from './parts.ts';

const manifest = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
  devDependencies: Record<string, string>;
};

describe('the optional parts', () => {
  it('names the package and version to install, and exits the way out', () => {
    expect(missingPart('reference', () => false)).toBe(
      `the embedded reference needs @duckdb/node-api, an optional part of the kit not installed here: npm install --save-dev @duckdb/node-api@${manifest.peerDependencies['@duckdb/node-api']} (or give --target to test a server of your own)`,
    );
    expect(missingPart('image', () => false)).toMatch(
      /^--image needs testcontainers, an optional part of the kit not installed here: npm install --save-dev testcontainers@\S+ \(/,
    );
    expect(missingPart('browser', () => false)).toBe(
      `the hub's browser driver needs playwright-core, an optional part of the kit not installed here: npm install --save-dev playwright-core@${manifest.peerDependencies['playwright-core']} (without it the hub's browser tests end not-run)`,
    );
  });

  it('says nothing when the part is installed (a clone has them all)', () => {
    expect(missingPart('reference')).toBeUndefined();
    expect(missingPart('image')).toBeUndefined();
    expect(missingPart('browser')).toBeUndefined();
  });

  it('are optional peers a dependent does not get, and devDependencies of a clone', () => {
    for (const name of Object.values(PARTS).flatMap((part) => part.packages)) {
      expect(manifest.dependencies, name).not.toHaveProperty(name);
      expect(manifest.peerDependenciesMeta[name]?.optional, name).toBe(true);
      expect(manifest.devDependencies[name], name).toBe(manifest.peerDependencies[name]);
    }
  });
});

/**
 * The modules a file imports at load time (not `import type`, not `import()`), resolved. Under
 * verbatimModuleSyntax (tsconfig.json) `import { type A } from 'x'` still loads x: only
 * `import type` is left out.
 */
function staticImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const found: string[] = [];
  for (const statement of source.statements) {
    let specifier: ts.Expression | undefined;
    if (ts.isImportDeclaration(statement)) {
      if (statement.importClause?.isTypeOnly !== true) specifier = statement.moduleSpecifier;
    } else if (ts.isExportDeclaration(statement) && !statement.isTypeOnly) {
      specifier = statement.moduleSpecifier;
    }
    if (specifier === undefined || !ts.isStringLiteral(specifier)) continue;
    const name = specifier.text;
    found.push(name.startsWith('.') ? path.resolve(path.dirname(file), name) : name);
  }
  return found;
}

/** Every module loaded at start by `entry`, as paths relative to the root or package names. */
function loadedBy(entry: string): Map<string, string> {
  const seen = new Map<string, string>([[entry, '(entry)']]);
  const queue = [path.join(PROJECT_ROOT, entry)];
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    const from = path.relative(PROJECT_ROOT, file);
    for (const imported of staticImports(file)) {
      const name = path.isAbsolute(imported) ? path.relative(PROJECT_ROOT, imported) : imported;
      if (seen.has(name)) continue;
      seen.set(name, from);
      if (path.isAbsolute(imported) && imported.endsWith('.ts')) queue.push(imported);
    }
  }
  return seen;
}

describe('eac run --target loads no optional part', () => {
  // The CLI, the library and what the run loads in its own process beside vitest's workers.
  for (const entry of [
    'bin/cli-main.ts',
    'lib/index.ts',
    'runner/run.ts',
    'runner/global-setup.ts',
  ]) {
    it(`${entry} reaches neither reference/ nor an optional part's package through static imports`, () => {
      const loaded = loadedBy(entry);
      const forbidden = [...loaded.keys()].filter(
        (name) =>
          name.startsWith('reference/') ||
          (name.startsWith('latitude/') && name !== 'latitude/choice.ts') ||
          ['fastify', 'testcontainers', '@duckdb/node-api', 'playwright-core'].some(
            (pkg) => name === pkg || name.startsWith(`${pkg}/`),
          ),
      );
      expect(forbidden.map((name) => `${name} (imported by ${loaded.get(name) ?? '?'})`)).toEqual(
        [],
      );
      expect(loaded.size).toBeGreaterThan(5);
    });
  }
});

describe('the conformance run loads playwright-core only when a hub test asks for a browser', () => {
  // Its global setups in the run's process, and every test file its workers load: the browser
  // harness imports the driver with import() once the broker has a browser, so without the
  // part the hub's browser tests end not-run instead of the files failing to load.
  const suites = path.join(PROJECT_ROOT, 'suites');
  const testFiles = readdirSync(suites, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.ts') && !file.startsWith(`harness${path.sep}`))
    .map((file) => path.join('suites', file));
  const entries = ['suites/harness/browser-setup.ts', 'suites/harness/browser.ts', ...testFiles];

  it('finds the hub test files that use the browser among the entries', () => {
    expect(testFiles).toContain(path.join('suites', 'hub', 'names-everywhere.test.ts'));
  });

  for (const entry of entries) {
    it(`${entry} reaches no playwright-core through static imports`, () => {
      const loaded = loadedBy(entry);
      const driver = [...loaded.keys()].filter(
        (name) => name === 'playwright-core' || name.startsWith('playwright-core/'),
      );
      expect(driver.map((name) => `${name} (imported by ${loaded.get(name) ?? '?'})`)).toEqual([]);
    });
  }
});
