import { expect } from 'vitest';
import type { z } from 'zod';
import { ErrorEnvelope } from '../../spec/schemas/common.ts';
import type { Reply } from './http.ts';

function show(res: Reply): string {
  return `${res.status} ${res.text.slice(0, 400)}`;
}

/** The status a success may carry where the document shows none: any 2xx with a body. */
export const successStatus = (status: number) => status >= 200 && status < 300 && status !== 204;

/**
 * A success in the envelope of the document's preamble, with `data` of the given schema.
 * `status` is the documented one, or `any-2xx` for a call whose status the document does not
 * show (§4.16's v2 calls; the v1 create and add-charts it names without shapes): any 2xx but
 * 204, since the envelope needs a body. Returns the parsed data.
 */
export function expectSuccess<S extends z.ZodType>(
  res: Reply,
  schema: S,
  what: string,
  status: 200 | 'any-2xx' = 200,
): z.infer<S> {
  if (status === 'any-2xx')
    expect(successStatus(res.status), `${what}: expected a 2xx success, got ${show(res)}`).toBe(
      true,
    );
  else expect(res.status, `${what}: expected ${status}, got ${show(res)}`).toBe(status);
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
