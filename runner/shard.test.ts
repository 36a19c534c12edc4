import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseCommand } from './args.ts';
import { assignShards, parseShard, pickShard, stableHash } from './shard.ts';

describe('--shard i/n', () => {
  it('parses i/n and refuses what is not a shard', () => {
    expect(parseShard('2/4')).toEqual({ index: 2, count: 4 });
    expect(parseShard(' 1 / 1 ')).toEqual({ index: 1, count: 1 });
    for (const bad of ['0/2', '3/2', '2', 'a/b', '1/0', '-1/2', '1/1001'])
      expect(parseShard(bad)).toMatch(/--shard takes i\/n/);
    const command = parseCommand(['run', '--shard', '1/3']);
    expect(command.kind === 'run' && command.options.shard).toEqual({ index: 1, count: 3 });
    expect(() => parseCommand(['run', '--shard', '4/3'])).toThrow(/--shard takes i\/n/);
  });

  it('puts every file in exactly one shard, the same whatever the listing order', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.stringMatching(/^suites\/[a-z]{1,6}\/[a-z]{1,8}\.test\.ts$/), {
          minLength: 1,
          maxLength: 40,
        }),
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 0, max: 1000 }),
        (paths, count, salt) => {
          const files = paths.map((file) => ({ file, weight: (stableHash(file) + salt) % 5000 }));
          const placed = assignShards(files, count);
          const reversed = assignShards([...files].reverse(), count);
          expect([...placed.keys()].sort()).toEqual([...paths].sort());
          for (const [file, shard] of placed) {
            expect(shard).toBeGreaterThanOrEqual(0);
            expect(shard).toBeLessThan(count);
            expect(reversed.get(file)).toBe(shard);
          }
          // Heaviest first to the lightest shard: loads differ by at most the heaviest file.
          const loads = Array.from({ length: count }, (_, shard) =>
            files
              .filter((f) => placed.get(f.file) === shard)
              .reduce((sum, f) => sum + Math.max(1, f.weight), 0),
          );
          const heaviest = Math.max(...files.map((f) => Math.max(1, f.weight)));
          expect(Math.max(...loads) - Math.min(...loads)).toBeLessThanOrEqual(heaviest);
        },
      ),
      { seed: 20261122, numRuns: 200 },
    );
  });

  it('picks the test specifications of one shard by their module paths', () => {
    const specs = ['a', 'b', 'c', 'd', 'e'].map((n) => ({ moduleId: `/p/suites/x/${n}.test.ts` }));
    const sizes: Record<string, number> = { a: 500, b: 400, c: 300, d: 200, e: 100 };
    const sizeOf = (file: string) => sizes[file.slice(-9, -8)] ?? 0;
    const shards = [1, 2].map((index) =>
      pickShard(specs, (s) => s.moduleId, '/p', { index, count: 2 }, sizeOf).map((s) =>
        s.moduleId.slice(-9, -8),
      ),
    );
    expect(shards).toEqual([
      ['a', 'd', 'e'],
      ['b', 'c'],
    ]);
  });
});
