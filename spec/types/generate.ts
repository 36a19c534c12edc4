// Generates the checked-in type declarations of the OpenAPI contracts with openapi-typescript's
// Node API. The freshness test calls the same function, so what `npm run gen:types` writes and
// what the test expects cannot drift apart.
//
// Options: `defaultNonNullable` is turned off because openapi-typescript would otherwise make
// every property that carries a `default` (e.g. `expiration`, §4.7) required in component
// schemas, although callers may leave it out. The output is written as produced (spec/types is
// excluded from prettier and eslint).
import { writeFile } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import openapiTS, { astToString, COMMENT_HEADER } from 'openapi-typescript';
import { z } from 'zod';
import { ExpectationsFile } from '../expectations.ts';
import { TargetProfile } from '../profile.ts';

export interface TypesTarget {
  /** The OpenAPI document. */
  readonly source: URL;
  /** The generated declaration file. */
  readonly output: URL;
}

export const typesTargets: readonly TypesTarget[] = [
  {
    source: new URL('../openapi.yaml', import.meta.url),
    output: new URL('./openapi.d.ts', import.meta.url),
  },
  {
    source: new URL('../hooks.openapi.yaml', import.meta.url),
    output: new URL('./hooks.openapi.d.ts', import.meta.url),
  },
];

/** Renders the declaration file text for one OpenAPI document. */
export async function generateTypes(source: URL): Promise<string> {
  const ast = await openapiTS(source, { defaultNonNullable: false, silent: true });
  return COMMENT_HEADER + astToString(ast);
}

/** The published JSON Schema of target profiles (spec/profile.ts is its source). */
export const profileSchemaFile = new URL('../profile.schema.json', import.meta.url);

export function generateProfileSchema(): string {
  const schema = z.toJSONSchema(TargetProfile, { io: 'input', target: 'draft-2020-12' });
  return `${JSON.stringify({ ...schema, title: 'EAC target profile' }, null, 2)}\n`;
}

/** The published JSON Schema of expectations files (spec/expectations.ts is its source). */
export const expectationsSchemaFile = new URL('../expectations.schema.json', import.meta.url);

export function generateExpectationsSchema(): string {
  const schema = z.toJSONSchema(ExpectationsFile, { io: 'input', target: 'draft-2020-12' });
  return `${JSON.stringify({ ...schema, title: 'EAC expectations file' }, null, 2)}\n`;
}

async function main(): Promise<void> {
  for (const target of typesTargets) {
    await writeFile(target.output, await generateTypes(target.source));
    console.log(`${fileURLToPath(target.source)} -> ${fileURLToPath(target.output)}`);
  }
  await writeFile(profileSchemaFile, generateProfileSchema());
  console.log(`spec/profile.ts -> ${fileURLToPath(profileSchemaFile)}`);
  await writeFile(expectationsSchemaFile, generateExpectationsSchema());
  console.log(`spec/expectations.ts -> ${fileURLToPath(expectationsSchemaFile)}`);
}

const entry = process.argv[1];
if (entry !== undefined && import.meta.url === pathToFileURL(entry).href) {
  await main();
}
