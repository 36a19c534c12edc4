import { afterEach, describe, expect, it, vi } from 'vitest';
import { areaLine, elapsedText, liveLine, Progress, type ProgressCounts } from './progress.ts';

function stream(isTTY: boolean) {
  const writes: string[] = [];
  return { isTTY, writes, write: (text: string) => writes.push(text) };
}

/** A clock the test moves by hand. */
function clock(start = 0) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

const identity = (pass: number, finished = false) => ({
  area: 'identity',
  pass,
  failed: 2,
  notRun: 10,
  probe: 0,
  finished,
});

function counts(done: number, extra: Partial<ProgressCounts> = {}): ProgressCounts {
  return { done, total: 1025, failed: 2, notRun: 10, current: 'identity', ...extra };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('the progress texts', () => {
  it('says elapsed time in seconds, minutes and hours', () => {
    expect(elapsedText(0)).toBe('0s');
    expect(elapsedText(41_900)).toBe('41s');
    expect(elapsedText(72_000)).toBe('1m12s');
    expect(elapsedText(3_725_000)).toBe('1h02m');
  });

  it('shows the elapsed time, the area under way and the counts on the live line', () => {
    expect(liveLine(counts(312), 72_000)).toBe('[1m12s] identity 312/1025 ✓300 ✗2 ○10');
    // While files are still collected the total can grow: it says so with a `+`.
    expect(
      liveLine(counts(13, { filesPending: 4, current: 'hub', failed: 0, notRun: 1 }), 1000),
    ).toBe('[1s] hub 13/1025+ ✓12 ✗0 ○1');
  });

  it('says one finished area in a line, with its own plural', () => {
    expect(areaLine(identity(548, true), 41_000)).toBe(
      'identity: 560 tests, 548 pass, 2 fail, 10 not-run, 0 probe (41s)',
    );
    expect(
      areaLine({ area: 'hub', pass: 1, failed: 0, notRun: 0, probe: 0, finished: true }, 500),
    ).toBe('hub: 1 test, 1 pass, 0 fail, 0 not-run, 0 probe (0s)');
  });
});

describe('Progress on a terminal', () => {
  it('rewrites one coloured line in place and ends it at the finish', () => {
    const out = stream(true);
    const time = clock();
    const progress = new Progress(out, { now: time.now, env: {}, tickMs: 0 });
    progress.update(counts(1));
    time.advance(72_000);
    progress.update(counts(312, { areas: [identity(300, true)] }));
    progress.finish(counts(1025));
    expect(out.writes.every((w) => w.startsWith('\r') || w === '\n')).toBe(true);
    expect(out.writes[1]).toContain('[1m12s] identity 312/1025');
    expect(out.writes[1]).toContain('\u001b[32m✓300\u001b[39m');
    // A finished area prints no line of its own on a terminal: the live line says it all.
    expect(out.writes.some((w) => w.includes('identity:'))).toBe(false);
    expect(out.writes.at(-2)).toContain('1025/1025');
    expect(out.writes.at(-1)).toBe('\n');
  });

  it('has no colour with NO_COLOR', () => {
    const out = stream(true);
    new Progress(out, { now: () => 0, env: { NO_COLOR: '1' }, tickMs: 0 }).update(counts(15));
    expect(out.writes[0]).not.toContain('\u001b[3');
    expect(out.writes[0]).toContain('✓3 ✗2 ○10');
  });

  it('moves the clock on while no test ends, and stops at the finish', () => {
    vi.useFakeTimers();
    const out = stream(true);
    const time = clock();
    const progress = new Progress(out, { now: time.now, env: {}, tickMs: 1000 });
    progress.update(counts(1));
    time.advance(3000);
    vi.advanceTimersByTime(1000);
    expect(out.writes.at(-1)).toContain('[3s] identity 1/1025');
    progress.finish();
    const written = out.writes.length;
    vi.advanceTimersByTime(5000);
    expect(out.writes).toHaveLength(written);
  });
});

describe('Progress in CI or a pipe', () => {
  it('prints one line per finished area, with the time since it started, and nothing else', () => {
    const out = stream(false);
    const time = clock(1000);
    const progress = new Progress(out, { now: time.now, env: {} });
    const hub = { area: 'hub', pass: 0, failed: 0, notRun: 0, probe: 0, finished: false };
    // Files of an area the selection narrowed to no test: no line.
    const chat = { area: 'chat', pass: 0, failed: 0, notRun: 0, probe: 0, finished: true };
    progress.update(counts(1, { areas: [identity(0), chat] }));
    time.advance(20_000);
    progress.update(counts(2, { areas: [identity(1), hub] }));
    time.advance(21_000);
    for (let done = 3; done < 200; done += 1)
      progress.update(counts(done, { areas: [identity(548, true), hub] }));
    time.advance(5_000);
    progress.finish(
      counts(1025, { areas: [identity(548, true), { ...hub, pass: 5, probe: 2 }, chat] }),
    );
    progress.finish();
    expect(out.writes).toEqual([
      'identity: 560 tests, 548 pass, 2 fail, 10 not-run, 0 probe (41s)\n',
      // An area the run ended before it finished (a bail) is printed at the finish.
      'hub: 7 tests, 5 pass, 0 fail, 0 not-run, 2 probe (26s)\n',
    ]);
  });

  it('takes CI on a terminal for a log, with no colour', () => {
    const out = stream(true);
    const progress = new Progress(out, { now: () => 0, env: { CI: 'true' } });
    progress.update(counts(22, { areas: [identity(10, true)] }));
    progress.finish();
    expect(out.writes).toEqual(['identity: 22 tests, 10 pass, 2 fail, 10 not-run, 0 probe (0s)\n']);
  });
});
