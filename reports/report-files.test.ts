import { mkdtemp, readFile, readlink, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import {
  createRunDir,
  pointLatest,
  readResults,
  REPORT_FILES,
  runStamp,
  writeReports,
} from './report-files.ts';
import { sampleResults } from './sample-results.ts';

describe('report files', () => {
  it('stamps runs with a sortable, file-system-safe name and the seed', () => {
    const stamp = runStamp(new Date('2025-01-02T03:04:05.678Z'), 123);
    expect(stamp).toBe('2025-01-02T03-04-05Z-s3f');
    expect(stamp).not.toMatch(/[:\\/ ]/);
  });

  it('never reuses a run folder', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'eac-reports-'));
    const at = new Date('2025-01-02T03:04:05Z');
    const first = await createRunDir(root, at, 1);
    const second = await createRunDir(root, at, 1);
    expect(second).not.toBe(first);
    expect(path.dirname(first)).toBe(path.join(root, 'runs'));
  });

  it('writes the four files, reads results back, and moves latest to the newest run', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'eac-reports-'));
    const run = sampleResults();
    const a = await createRunDir(root, new Date('2025-01-01T00:00:00Z'), 1);
    await writeReports(a, run);
    expect((await readdir(a)).sort()).toEqual([...REPORT_FILES].sort());
    expect(await readResults(a)).toEqual(run);
    await pointLatest(root, a);
    const b = await createRunDir(root, new Date('2025-01-01T00:00:01Z'), 1);
    await pointLatest(root, b);
    expect(await readlink(path.join(root, 'latest'))).toBe(path.relative(root, b));
    // No leftovers of the atomic swap.
    expect((await readdir(root)).sort()).toEqual(['latest', 'runs']);
    // Through the link we now see b, which has no files yet, not a.
    expect(await readdir(path.join(root, 'latest'))).toEqual([]);
    expect(
      await readFile(
        path.join(root, 'latest', '..', 'runs', path.basename(a), 'summary.md'),
        'utf8',
      ),
    ).toContain('# EAC');
  });

  it('gives latest to the run that finished last, whichever swaps last', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'eac-reports-'));
    const early = await createRunDir(root, new Date('2025-01-01T00:00:00Z'), 1);
    const late = await createRunDir(root, new Date('2025-01-01T00:00:00Z'), 2);
    await writeReports(early, { ...sampleResults(), finishedAt: '2025-01-01T00:05:00.000Z' });
    await writeReports(late, { ...sampleResults(), finishedAt: '2025-01-01T00:06:00.000Z' });
    expect(await pointLatest(root, late)).toBe(path.join(root, 'latest'));
    // The run that finished first comes to swap after the other: latest stays on the later one.
    expect(await pointLatest(root, early)).toBeUndefined();
    expect(await readlink(path.join(root, 'latest'))).toBe(path.relative(root, late));
    expect((await readdir(root)).sort()).toEqual(['latest', 'runs']);
  });

  it('lets two runs of one process swap latest at the same moment', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'eac-reports-'));
    const a = await createRunDir(root, new Date('2025-01-01T00:00:00Z'), 1);
    const b = await createRunDir(root, new Date('2025-01-01T00:00:00Z'), 2);
    // The same millisecond for both, as on a fast machine: the swap must not name its
    // temporary link after the process and the clock alone.
    const clock = vi.spyOn(Date, 'now').mockReturnValue(1_700_000_000_000);
    try {
      await Promise.all([pointLatest(root, a), pointLatest(root, b)]);
    } finally {
      clock.mockRestore();
    }
    expect([a, b].map((dir) => path.relative(root, dir))).toContain(
      await readlink(path.join(root, 'latest')),
    );
    expect((await readdir(root)).sort()).toEqual(['latest', 'runs']);
  });
});
