import { expect } from 'vitest';
import type { z } from 'zod';
import { ErrorEnvelope } from '../../spec/schemas/common.ts';
import type { Reply } from './http.ts';

function show(res: Reply): string {
  return `${res.status} ${res.text.slice(0, 400)}`;
}

/**
 * A success in the envelope of the document's preamble, with `data` of the given schema.
 * Returns the parsed data.
 */
export function expectSuccess<S extends z.ZodType>(
  res: Reply,
  schema: S,
  what: string,
): z.infer<S> {
  expect(res.status, `${what}: expected 200, got ${show(res)}`).toBe(200);
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
