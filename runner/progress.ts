import { plural } from '../reports/words.ts';
import { colourOn, paint, type Paint } from './colour.ts';
/**
 * What `eac run` shows on stderr while the tests run. On a terminal: one live line, rewritten
 * in place, with the elapsed time and the area under way, `[1m12s] identity 312/1025 ✓300 ✗2 ○10`.
 * In CI (`CI` set) or when stderr is not a terminal: one line per area as it finishes,
 * `identity: 562 tests, 300 pass, 2 fail, 0 not-run, 260 probe (41s)`, so a log holds a line per area
 * rather than a stream of totals. Colour only on a terminal, and never with `NO_COLOR`.
 */
export interface AreaProgress {
  readonly area: string;
  /** Tests that ended so far, by outcome. */
  readonly pass: number;
  readonly failed: number;
  readonly notRun: number;
  readonly probe: number;
  /** Probes that broke while recording (counted apart from the probes). */
  readonly probeErrors?: number;
  /** Every test file of the area ended. */
  readonly finished: boolean;
}

export interface ProgressCounts {
  readonly done: number;
  readonly total: number;
  readonly failed: number;
  readonly notRun: number;
  /** Test files not collected yet: while any remain, the total can still grow. */
  readonly filesPending?: number;
  /** The area of the test that ended last. */
  readonly current?: string;
  /** Per area, in the order they started. */
  readonly areas?: readonly AreaProgress[];
}

export interface ProgressStream {
  readonly isTTY?: boolean;
  write(text: string): unknown;
}

export interface ProgressOptions {
  /** The clock (milliseconds); tests pass their own. */
  readonly now?: () => number;
  /** Where `CI` and `NO_COLOR` are read; `process.env` by default. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** On a terminal, how often the line is redrawn while no test ends (the clock moves on); 0: never. */
  readonly tickMs?: number;
}

/** `41s`, `1m12s`, `1h02m`. */
export function elapsedText(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m${String(seconds % 60).padStart(2, '0')}s`;
  return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, '0')}m`;
}

/** The line of a finished area, as CI logs show it. */
export function areaLine(area: AreaProgress, ms: number): string {
  const broken = area.probeErrors ?? 0;
  const tests = area.pass + area.failed + area.notRun + area.probe + broken;
  return `${area.area}: ${plural(tests, 'test')}, ${area.pass} pass, ${area.failed} fail, ${area.notRun} not-run, ${area.probe} probe${broken > 0 ? `, ${broken} probe-error` : ''} (${elapsedText(ms)})`;
}

/** The live line of a terminal. */
export function liveLine(counts: ProgressCounts, ms: number, colour: Paint = paint(false)): string {
  const total = (counts.filesPending ?? 0) > 0 ? `${counts.total}+` : String(counts.total);
  const pass = counts.done - counts.failed - counts.notRun;
  const area = counts.current !== undefined ? ` ${counts.current}` : '';
  return `[${elapsedText(ms)}]${area} ${counts.done}/${total} ${colour.green(`✓${pass}`)} ${colour.red(`✗${counts.failed}`)} ${colour.yellow(`○${counts.notRun}`)}`;
}

export class Progress {
  readonly #now: () => number;
  readonly #live: boolean;
  readonly #paint: Paint;
  readonly #startedAt: number;
  /** When each area was first seen, and whether its line was printed. */
  readonly #areas = new Map<string, { since: number; printed: boolean }>();
  readonly #tickMs: number;
  #tick: ReturnType<typeof setInterval> | undefined;
  #last: ProgressCounts | undefined;
  #open = false;

  constructor(
    private readonly stream: ProgressStream,
    options: ProgressOptions = {},
  ) {
    const env = options.env ?? process.env;
    this.#now = options.now ?? Date.now;
    this.#live = stream.isTTY === true && !ciEnv(env);
    this.#paint = paint(this.#live && colourOn(stream, env));
    this.#startedAt = this.#now();
    this.#tickMs = options.tickMs ?? 1000;
  }

  update(counts: ProgressCounts): void {
    this.#last = counts;
    const now = this.#now();
    for (const area of counts.areas ?? []) {
      let seen = this.#areas.get(area.area);
      if (seen === undefined) {
        seen = { since: now, printed: false };
        this.#areas.set(area.area, seen);
      }
      if (area.finished && !seen.printed && !this.#live && tested(area)) {
        seen.printed = true;
        this.stream.write(`${areaLine(area, now - seen.since)}\n`);
      }
    }
    if (this.#live) {
      this.#draw(counts, now);
      if (this.#tick === undefined && this.#tickMs > 0) {
        this.#tick = setInterval(() => {
          if (this.#last !== undefined) this.#draw(this.#last, this.#now());
        }, this.#tickMs);
        this.#tick.unref();
      }
    }
  }

  #draw(counts: ProgressCounts, now: number): void {
    this.stream.write(`\r${liveLine(counts, now - this.#startedAt, this.#paint)}\u001b[K`);
    this.#open = true;
  }

  /** Shows the final state: ends the live line, or prints the areas not printed yet. */
  finish(counts?: ProgressCounts): void {
    const final = counts ?? this.#last;
    clearInterval(this.#tick);
    this.#tick = undefined;
    if (this.#live) {
      if (final !== undefined) this.#draw(final, this.#now());
      if (this.#open) this.stream.write('\n');
      this.#open = false;
      return;
    }
    const now = this.#now();
    for (const area of final?.areas ?? []) {
      const seen = this.#areas.get(area.area) ?? { since: now, printed: false };
      this.#areas.set(area.area, seen);
      if (seen.printed || !tested(area)) continue;
      seen.printed = true;
      this.stream.write(`${areaLine(area, now - seen.since)}\n`);
    }
  }
}

/** An area whose files the selection narrowed to no test has no line. */
const tested = (area: AreaProgress) => area.pass + area.failed + area.notRun + area.probe > 0;

/** `CI` set to anything but empty, `0` or `false`, as CI services set it. */
function ciEnv(env: Readonly<Record<string, string | undefined>>): boolean {
  const ci = (env['CI'] ?? '').toLowerCase();
  return ci !== '' && ci !== '0' && ci !== 'false';
}
