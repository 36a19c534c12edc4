import { afterAll, beforeAll } from 'vitest';

import { start, type RunningReference, type StartOptions } from './server.ts';

/** The §7 envelope (or a success's data) as the reference's unit tests read an answer. */
export interface Envelope {
  status: string;
  data: Record<string, unknown>;
  error?: { message: string; code?: string; details?: Record<string, unknown> };
}

/**
 * A reference started before the tests of the calling file (or describe block) and closed
 * after them. Its addresses are read inside tests, once it has started.
 */
export function referenceForTests(options: StartOptions): {
  readonly running: RunningReference;
  readonly url: string;
  readonly hooks: string;
} {
  let running: RunningReference | undefined;
  beforeAll(async () => {
    running = await start(options);
  });
  afterAll(() => running?.close());
  const started = (): RunningReference => {
    if (running === undefined) throw new Error('the reference has not started yet');
    return running;
  };
  return {
    get running() {
      return started();
    },
    get url() {
      return started().url;
    },
    get hooks() {
      return started().hooksUrl ?? '';
    },
  };
}

/**
 * For the reference's own unit tests: a JSON POST to a running reference, with the status and
 * the parsed answer. (The suites have their own client, suites/harness/http.ts.)
 */
export async function postJson<T>(
  url: string,
  body: unknown,
): Promise<{ status: number; body: T }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as T };
}
