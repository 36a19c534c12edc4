import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { API, fill } from './paths.ts';

const openapi = parse(
  readFileSync(new URL('../../spec/openapi.yaml', import.meta.url), 'utf8'),
) as {
  paths: Record<string, Record<string, unknown>>;
};
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

describe('the path table', () => {
  it.each(Object.entries(API))('%s is a path of spec/openapi.yaml with its methods', (_, entry) => {
    const item = openapi.paths[entry.path];
    expect(item, `${entry.path} is not a path of spec/openapi.yaml`).toBeDefined();
    const listed = Object.keys(item ?? {})
      .filter((k) => HTTP_METHODS.includes(k))
      .map((k) => k.toUpperCase());
    for (const method of entry.methods)
      expect(listed, `${method} ${entry.path} is not in spec/openapi.yaml`).toContain(method);
  });

  it('fills every parameter and refuses a missing one', () => {
    expect(fill(API.userRole.path, { projectId: 'p', projectUserRoleId: 'r' })).toBe(
      '/v1/api/projects/p/user-roles/r',
    );
    expect(() => fill(API.userRole.path, { projectId: 'p' })).toThrow(/projectUserRoleId/);
  });
});
