import { describe, expect, it } from 'vitest';
import { parseCommand } from './args.ts';
import { UsageError } from './usage.ts';
import {
  countLine,
  openPointsCommand,
  openPointsExitCode,
  openPointsReport,
  renderOpenPoints,
} from './open-points-command.ts';
import type { OpenPoint } from '../spec/open-points.ts';

const point = (id: string, kind: OpenPoint['kind'] = 'partial'): OpenPoint => ({
  id,
  section: '4.2',
  kind,
  summary: `summary of ${id}`,
  clauses: ['roles.list.order'],
});

const POINTS = [point('a', 'not-shown'), point('b', 'unspecified'), point('c'), point('d')];

describe('eac latitude --open-points', () => {
  it('joins each point with the entries that vary it, else its reason, else neither', () => {
    const report = openPointsReport(
      POINTS,
      [{ id: 'e1', varies: ['a', 'c'] }, { id: 'e2', varies: ['c'] }, { id: 'e3' }],
      { b: 'no call answers it', c: 'varied all the same' },
    );
    expect(report.points.map((p) => [p.id, p.status, p.variedBy])).toEqual([
      ['a', 'varied', ['e1']],
      ['b', 'reason', []],
      ['c', 'varied', ['e1', 'e2']],
      ['d', 'neither', []],
    ]);
    expect(report.counts).toEqual({ total: 4, varied: 2, reason: 1, neither: 1 });
    expect(countLine(report)).toBe('4 open points: 2 varied, 1 answered by a reason, 1 neither');
  });

  it('exits 1 while one point has neither, 0 when every point is varied or reasoned', () => {
    const open = openPointsReport(POINTS, [{ id: 'e', varies: ['a', 'c'] }], { b: 'r' });
    expect(openPointsExitCode(open)).toBe(1);
    const closed = openPointsReport(POINTS, [{ id: 'e', varies: ['a', 'c', 'd'] }], { b: 'r' });
    expect(openPointsExitCode(closed)).toBe(0);
  });

  it('lists the points with neither first, then every point by kind, then the count line', () => {
    const text = renderOpenPoints(
      openPointsReport(POINTS, [{ id: 'e', varies: ['a'] }], { b: 'no call answers it' }),
    );
    const lines = text.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^Neither .*\(2\):$/);
    expect(lines[1]).toMatch(/^ {2}c /);
    expect(lines[2]).toMatch(/^ {2}d /);
    expect(text).toMatch(/ a .*\n\s+varied by e\n/);
    expect(text).toMatch(/ b .*\n\s+reason: no call answers it\n/);
    expect(text.indexOf('not shown (1)')).toBeLessThan(text.indexOf('Unspecified clauses'));
    expect(lines.at(-1)).toBe('4 open points: 1 varied, 1 answered by a reason, 2 neither');
    const none = renderOpenPoints(
      openPointsReport(POINTS, [{ id: 'e', varies: ['a', 'b', 'c', 'd'] }], {}),
    );
    expect(none).not.toMatch(/^Neither/);
  });

  it('prints the same as JSON with --json, and exits as the text would', async () => {
    let out = '';
    const code = await openPointsCommand(
      { json: true },
      { stdout: { write: (t: string) => (out += t) } },
    );
    const parsed = JSON.parse(out) as ReturnType<typeof openPointsReport>;
    expect(code).toBe(openPointsExitCode(parsed));
    expect(parsed.counts.total).toBe(parsed.points.length);
    expect(parsed.counts.varied + parsed.counts.reason + parsed.counts.neither).toBe(
      parsed.counts.total,
    );
  });

  it('is wired as a flag of eac latitude; --json goes with it only', () => {
    expect(parseCommand(['latitude', '--open-points', '--json'])).toMatchObject({
      kind: 'latitude',
      options: { openPoints: { json: true } },
    });
    expect(parseCommand(['latitude', '--open-points'])).toMatchObject({
      options: { openPoints: { json: false } },
    });
    expect(parseCommand(['latitude'])).not.toHaveProperty('options.openPoints');
    expect(() => parseCommand(['latitude', '--json'])).toThrow(UsageError);
  });
});
