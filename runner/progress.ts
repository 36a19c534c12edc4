/**
 * The one live line of `eac run` on stderr: `eac: 37/120 tests, 0 failed, 2 not-run`.
 * On a terminal it is rewritten in place; elsewhere (CI logs) it is printed at most every
 * `intervalMs` and once at the end, so logs stay short.
 */
export interface ProgressCounts {
  readonly done: number;
  readonly total: number;
  readonly failed: number;
  readonly notRun: number;
  /** Test files not collected yet: while any remain, the total can still grow. */
  readonly filesPending?: number;
}

export interface ProgressStream {
  readonly isTTY?: boolean;
  write(text: string): unknown;
}

export function progressText(counts: ProgressCounts): string {
  const total = (counts.filesPending ?? 0) > 0 ? `${counts.total}+` : String(counts.total);
  return `eac: ${counts.done}/${total} tests, ${counts.failed} failed, ${counts.notRun} not-run`;
}

export class Progress {
  #last = '';
  #lastAt = Number.NEGATIVE_INFINITY;
  #pending: ProgressCounts | undefined;
  #open = false;

  constructor(
    private readonly stream: ProgressStream,
    private readonly options: { readonly intervalMs?: number; readonly now?: () => number } = {},
  ) {}

  update(counts: ProgressCounts): void {
    const text = progressText(counts);
    if (text === this.#last) return;
    if (this.stream.isTTY === true) {
      this.stream.write(`\r${text}\u001b[K`);
      this.#open = true;
      this.#last = text;
      return;
    }
    const now = (this.options.now ?? Date.now)();
    if (now - this.#lastAt >= (this.options.intervalMs ?? 2000)) {
      this.stream.write(`${text}\n`);
      this.#last = text;
      this.#lastAt = now;
      this.#pending = undefined;
    } else {
      this.#pending = counts;
    }
  }

  /** Prints the final state (if not shown yet) and ends the line. */
  finish(counts?: ProgressCounts): void {
    const final = counts ?? this.#pending;
    if (this.stream.isTTY === true) {
      if (final !== undefined) this.update(final);
      if (this.#open) this.stream.write('\n');
      this.#open = false;
      return;
    }
    if (final !== undefined && progressText(final) !== this.#last) {
      this.stream.write(`${progressText(final)}\n`);
      this.#last = progressText(final);
    }
    this.#pending = undefined;
  }
}
