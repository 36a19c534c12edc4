import { expect } from 'vitest';
import { z } from 'zod';
import type { OpenBodyId } from '../../spec/bodies.ts';
import { ErrorEnvelope } from '../../spec/schemas/common.ts';
import type { Reply } from './http.ts';
import { sameId } from './ids.ts';

function show(res: Reply): string {
  return `${res.status} ${res.text.slice(0, 400)}`;
}

/**
 * The status a success may carry where the document shows none: any 2xx, 204 included. A call
 * whose answer the document shows (a list, the look-up) is still read for its body.
 */
export const successStatus = (status: number) => status >= 200 && status < 300;

/**
 * Whether a reply carries no JSON: a 204, another status with nothing after the headers, or a
 * body of another media type (the preamble's envelope binds JSON answers only).
 */
const noJson = (res: Reply) =>
  res.status === 204 ||
  res.text.trim() === '' ||
  !(res.headers['content-type'] ?? '').toLowerCase().includes('json');

/** A success in the envelope of the document's preamble, with `data` of the given schema. */
export function expectSuccess<S extends z.ZodType>(
  res: Reply,
  schema: S,
  what: string,
): z.infer<S> {
  expect(res.status, `${what}: expected 200, got ${show(res)}`).toBe(200);
  return envelopeData(res, schema, what);
}

function envelopeData<S extends z.ZodType>(res: Reply, schema: S, what: string): z.infer<S> {
  const body = res.body as { status?: unknown; data?: unknown };
  expect(body.status, `${what}: the envelope's status should be 'success'`).toBe('success');
  const parsed = schema.safeParse(body.data);
  if (!parsed.success) {
    expect.fail(
      `${what}: data does not have the documented shape: ${JSON.stringify(parsed.error.issues.slice(0, 5))}`,
    );
  }
  return parsed.data;
}

/**
 * A success of a call whose answer the document does not show (spec/bodies.ts, named by `call`
 * so the reader sees which): any 2xx, and a JSON body, when one comes, in the preamble's
 * success envelope. Returns `data` when a JSON body came, undefined when none did.
 */
export function expectOpenSuccess(res: Reply, call: OpenBodyId, what: string): unknown {
  expect(
    successStatus(res.status),
    `${what} (${call}): expected a 2xx success, got ${show(res)}`,
  ).toBe(true);
  return noJson(res) ? undefined : envelopeData(res, z.unknown(), `${what} (${call})`);
}

/**
 * The entry a write made, when its answer did not name it (spec/bodies.ts): the entry of
 * `after` whose id is the last segment of a `Location` header's path, else the one entry of
 * `after` that `before` (the same caller's list read just before the write) lacked.
 */
export function madeEntry<T extends { readonly id: string }>(
  res: Reply,
  before: readonly { readonly id: string }[],
  after: readonly T[],
  what: string,
): T {
  const location = res.headers['location'];
  if (location !== undefined) {
    const id = new URL(location, 'http://target.invalid').pathname.split('/').pop() ?? '';
    // The header is read as written: its id is compared as §1 allows (ids.ts).
    const found = after.find((d) => sameId(d.id, id));
    if (found === undefined)
      expect.fail(`${what}: the Location header names ${id}, which the caller's list lacks`);
    return found;
  }
  const known = new Set(before.map((d) => d.id));
  const fresh = after.filter((d) => !known.has(d.id));
  if (fresh.length !== 1 || fresh[0] === undefined) {
    expect.fail(
      `${what}: the answer names no dashboard, and the caller's list gained ${fresh.length} entries (${fresh.map((d) => d.id).join(', ')}) where the write should have added one`,
    );
  }
  return fresh[0];
}

/** A refusal in the §7 envelope with the given status (and code, when one is expected). */
export function expectError(
  res: Reply,
  status: number,
  what: string,
  code?: string,
): ErrorEnvelope {
  expect(
    res.status,
    `${what}: expected ${status}${code === undefined ? '' : ` ${code}`}, got ${show(res)}`,
  ).toBe(status);
  const parsed = ErrorEnvelope.safeParse(res.body);
  if (!parsed.success)
    expect.fail(`${what}: the error body is not the §7 envelope: ${res.text.slice(0, 300)}`);
  if (code !== undefined) expect(parsed.data.error.code, `${what}: error code`).toBe(code);
  return parsed.data;
}

/** `status code` of a reply, for probe observations. */
export function statusAndCode(res: Reply): string {
  const code = ErrorEnvelope.safeParse(res.body).data?.error.code;
  return code === undefined ? String(res.status) : `${res.status} ${code}`;
}

/** `error.details` of a §7 envelope, or an empty object. */
export function detailsOf(res: Reply): Record<string, unknown> {
  return ErrorEnvelope.safeParse(res.body).data?.error.details ?? {};
}

const TELLING_DETAILS = ['reason', 'resource', 'field'] as const;

/** `status code` plus the telling details (reason, resource, field), for observations. */
export function describeAnswer(res: Reply): string {
  const details = detailsOf(res);
  const told = TELLING_DETAILS.filter((k) => typeof details[k] === 'string').map(
    (k) => `${k}=${String(details[k])}`,
  );
  return [statusAndCode(res), ...told].join(' ');
}

/** Whether a reply is the refusal a decision names: status, code and the given details. */
export function refusedAs(
  res: Reply,
  status: number,
  code: string,
  details: Readonly<Record<string, string>> = {},
): boolean {
  const got = detailsOf(res);
  return (
    statusAndCode(res) === `${status} ${code}` &&
    Object.entries(details).every(([k, v]) => got[k] === v)
  );
}

/** A refusal of bad input: a 4xx (never a 5xx) in the §7 envelope. */
export function expectClientError(res: Reply, what: string): ErrorEnvelope {
  expect(
    res.status,
    `${what} should be refused as a client error, got ${show(res)}`,
  ).toBeGreaterThanOrEqual(400);
  expect(res.status, `${what} should be refused as a client error, got ${show(res)}`).toBeLessThan(
    500,
  );
  return expectError(res, res.status, what);
}
