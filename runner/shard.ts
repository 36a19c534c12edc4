/**
 * `eac run --shard i/n`: which test files a shard runs. The split depends only on the files
 * (their paths and sizes), never on timing, so every machine of a CI matrix computes the same
 * split and the shards together hold every file exactly once.
 */
import { statSync } from 'node:fs';
import path from 'node:path';

export interface Shard {
  /** 1-based, as written on the command line. */
  readonly index: number;
  readonly count: number;
}

/** Parses `i/n` (1 ≤ i ≤ n ≤ 1000); returns an error message instead of throwing. */
export function parseShard(text: string): Shard | string {
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (match === null || !(index >= 1 && count >= 1 && index <= count && count <= 1000)) {
    return `--shard takes i/n with 1 <= i <= n <= 1000, e.g. 2/4; got "${text}"`;
  }
  return { index, count };
}

/** FNV-1a of a string: a stable tie-break that does not depend on listing order. */
export function stableHash(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(text, 'utf8')) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

export interface WeightedFile {
  /** Path relative to the project root with `/` separators: the same on every machine. */
  readonly file: string;
  /** Expected cost; the file's size in bytes stands in for its number of tests. */
  readonly weight: number;
}

/**
 * The shard (0-based) of every file: heaviest first, each to the lightest shard so far (ties
 * to the lower shard), files of equal weight in the order of their hashes. Deterministic, and
 * the shards' weights stay within one file's weight of each other.
 */
export function assignShards(files: readonly WeightedFile[], count: number): Map<string, number> {
  const sorted = [...new Map(files.map((f) => [f.file, f])).values()].sort(
    (a, b) =>
      b.weight - a.weight ||
      stableHash(a.file) - stableHash(b.file) ||
      (a.file < b.file ? -1 : a.file > b.file ? 1 : 0),
  );
  const loads = Array.from({ length: count }, () => 0);
  const assigned = new Map<string, number>();
  for (const { file, weight } of sorted) {
    let lightest = 0;
    for (let i = 1; i < count; i += 1) if ((loads[i] ?? 0) < (loads[lightest] ?? 0)) lightest = i;
    loads[lightest] = (loads[lightest] ?? 0) + Math.max(1, weight);
    assigned.set(file, lightest);
  }
  return assigned;
}

/** The relative path used to place a file (project-relative, `/` separators). */
export function shardKey(root: string, moduleId: string): string {
  return path.relative(root, moduleId).split(path.sep).join('/');
}

/**
 * Keeps the items (test specifications) whose file falls in the shard, the split being made
 * over the items given: the files the run's selection chose, the same on every shard.
 */
export function pickShard<T>(
  chosen: readonly T[],
  moduleIdOf: (item: T) => string,
  root: string,
  shard: Shard,
  sizeOf: (file: string) => number = (file) => statSync(file).size,
): T[] {
  const weighted = chosen.map((item) => ({
    file: shardKey(root, moduleIdOf(item)),
    weight: sizeOf(moduleIdOf(item)),
  }));
  const placed = assignShards(weighted, shard.count);
  return chosen.filter((item) => placed.get(shardKey(root, moduleIdOf(item))) === shard.index - 1);
}
