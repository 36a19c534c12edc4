import { describe, expect, it } from 'vitest';
import { addParts, cpuByPart, partOf, type CpuProfile } from './profile.ts';

const frame = (functionName: string, url = '') => ({ functionName, url });

describe('cpuByPart', () => {
  // (root) ─┬ handler (reference/) ─ writev (native)
  //         ├ (idle)
  //         ├ reply (fastify) ─ jobPromise (node:internal/crypto)
  //         ├ (garbage collector)
  //         ├ load (node:internal/modules)
  //         └ run (@duckdb/node-api)
  const profile: CpuProfile = {
    nodes: [
      { id: 1, callFrame: frame('(root)'), children: [2, 4, 5, 7, 8, 9] },
      { id: 2, callFrame: frame('handler', 'file:///proj/reference/http/route.ts'), children: [3] },
      { id: 3, callFrame: frame('writev') },
      { id: 4, callFrame: frame('(idle)') },
      {
        id: 5,
        callFrame: frame('reply', 'file:///proj/node_modules/fastify/lib/reply.js'),
        children: [6],
      },
      { id: 6, callFrame: frame('jobPromise', 'node:internal/crypto/util') },
      { id: 7, callFrame: frame('(garbage collector)') },
      { id: 8, callFrame: frame('load', 'node:internal/modules/esm/loader') },
      { id: 9, callFrame: frame('run', 'file:///proj/node_modules/@duckdb/node-api/lib/x.js') },
    ],
    samples: [3, 4, 6, 7, 8, 9, 2],
    timeDeltas: [100_000, 500_000, 200_000, 100_000, 300_000, 60_000, 100_000],
  };

  it('gives each sample to the first part its stack reaches from the top, idle left out', () => {
    expect(cpuByPart(profile, '/proj')).toEqual({
      'module loading': 0.3,
      reference: 0.2,
      'http server (fastify)': 0.2,
      'garbage collection': 0.1,
      'data (duckdb)': 0.1,
    });
  });

  it('tells packages, nested ones too, and folders apart', () => {
    expect(partOf(frame('f', 'file:///p/node_modules/a/node_modules/undici/x.js'), '/p')).toBe(
      'http client (undici)',
    );
    expect(partOf(frame('f', 'file:///p/suites/harness/http.ts'), '/p/')).toBe('harness');
    expect(partOf(frame('f', 'file:///p/suites/hub/pages.test.ts'), '/p')).toBe('tests');
    expect(partOf(frame('f', 'file:///elsewhere/x.ts'), '/p')).toBeUndefined();
  });

  it('adds parts up', () => {
    const total = { a: 1.2 };
    addParts(total, { a: 0.1, b: 2 });
    expect(total).toEqual({ a: 1.3, b: 2 });
  });
});
