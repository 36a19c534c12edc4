import { describe, expect, it } from 'vitest';
import { checkDynamicImports } from './build.ts';

describe('the bundle', () => {
  it("keeps no import() but the listed ones: bin/eac.mjs's loader warns on each", () => {
    expect(() => checkDynamicImports('a=await import("node:fs/promises")')).toThrow(
      /keeps import\(\) of node:fs\/promises/,
    );
    expect(() => checkDynamicImports("x=import('./other.js');y=import(`z`)")).toThrow(
      /\.\/other\.js, z/,
    );
    expect(() => checkDynamicImports('const t = await import("testcontainers")')).not.toThrow();
  });
});
