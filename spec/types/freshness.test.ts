// The declaration files in spec/types are generated from the OpenAPI contracts and checked in;
// this test regenerates them in memory and fails when a contract changed without regeneration.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  expectationsSchemaFile,
  generateExpectationsSchema,
  generateProfileSchema,
  generateTypes,
  profileSchemaFile,
  typesTargets,
} from './generate.ts';

describe('generated OpenAPI types', () => {
  for (const target of typesTargets) {
    const name = fileURLToPath(target.output).split(/[\\/]/).pop() ?? '';
    it(`${name} is up to date with its OpenAPI source`, { timeout: 60_000 }, async () => {
      const [expected, checkedIn] = await Promise.all([
        generateTypes(target.source),
        readFile(target.output, 'utf8'),
      ]);
      expect(checkedIn, 'run npm run gen:types').toBe(expected);
    });
  }

  it('profile.schema.json is up to date with spec/profile.ts', async () => {
    const checkedIn = await readFile(profileSchemaFile, 'utf8');
    expect(checkedIn, 'run npm run gen:types').toBe(generateProfileSchema());
  });

  it('expectations.schema.json is up to date with spec/expectations.ts', async () => {
    const checkedIn = await readFile(expectationsSchemaFile, 'utf8');
    expect(checkedIn, 'run npm run gen:types').toBe(generateExpectationsSchema());
  });
});
