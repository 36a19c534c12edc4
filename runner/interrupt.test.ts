import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { renderHtml } from '../reports/html.ts';
import { renderJunit } from '../reports/junit.ts';
import { sampleResults } from '../reports/sample-results.ts';
import { ResultsSchema } from '../reports/schema.ts';
import { renderSummary } from '../reports/summary-md.ts';
import { closingSummary, EXIT_INTERRUPTED, watchInterrupt, withoutWorkerDeaths } from './run.ts';

describe('Ctrl-C during a run', () => {
  it('the first SIGINT says "interrupted" and cancels the tests; a second quits at once', () => {
    const signals = new EventEmitter();
    // What vitest registers on its own: quitting at once, with no report.
    let vitestQuit = 0;
    const written: string[] = [];
    let cancelled = 0;
    let quit: number | undefined;
    signals.on('SIGINT', () => (vitestQuit += 1));
    const watch = watchInterrupt(
      signals,
      { write: (t: string) => written.push(t) },
      {
        cancel: () => {
          cancelled += 1;
        },
        quit: (code) => {
          quit = code;
        },
        // Listeners there before the run began stay; vitest's, added since, go.
        known: new Set(),
      },
    );
    expect(watch.interrupted()).toBe(false);
    signals.emit('SIGINT');
    expect(watch.interrupted()).toBe(true);
    expect(cancelled).toBe(1);
    expect(vitestQuit).toBe(0);
    expect(written.join('')).toMatch(/^\neac: interrupted: /);
    expect(quit).toBeUndefined();
    signals.emit('SIGINT');
    expect(quit).toBe(130);
    watch.dispose();
    expect(signals.listenerCount('SIGINT')).toBe(0);
    expect(EXIT_INTERRUPTED).toBe(130);
  });

  it('the partial report says so: results.json interrupted, the summary, the page, the closing lines', () => {
    const run = { ...sampleResults(), interrupted: true };
    expect(ResultsSchema.parse(run).interrupted).toBe(true);
    expect(renderSummary(run)).toContain('**Interrupted (Ctrl-C)**: a partial report');
    expect(renderHtml(run)).toContain('<p class="breach">Interrupted (Ctrl-C): a partial report');
    expect(renderJunit(run)).toContain('<property name="interrupted" value="true"/>');
    expect(closingSummary(run, '/r/x', undefined).split('\n')[1]).toMatch(
      /^eac: interrupted: a partial report of the \d+ tests that ended/,
    );
    expect(renderSummary(sampleResults())).not.toContain('Interrupted');
  });

  it('a worker that ended with the Ctrl-C is not a failure of the partial run', () => {
    const [first] = sampleResults().results;
    if (first === undefined) throw new Error('no sample');
    const death = {
      ...first,
      id: 'runner/unhandled-error-1',
      area: 'runner',
      outcome: 'fail' as const,
      reason: '[vitest-pool]: Worker forks emitted error.',
    };
    const other = { ...death, id: 'runner/unhandled-error-2', reason: 'TypeError: x' };
    const { kept, dropped } = withoutWorkerDeaths([first, death, other]);
    expect(kept.map((r) => r.id)).toEqual([first.id, other.id]);
    expect(dropped).toBe(1);
  });
});
