import { expect } from 'vitest';
import type { World } from './given/accounts.ts';
import type { Conformance } from './conformance.ts';
import type { Endpoint, Request } from './endpoints.ts';
import type { Reply } from './http.ts';
import { accountSnapshot } from './readback.ts';

/**
 * The framework of the credential tables (§5): a request of the endpoint table, carried with
 * some credential (a column), sent, and, where it is refused, the accounts it touched read
 * back to show that nothing changed. The test files say which rows and columns there are;
 * this file says how a cell is sent and judged.
 */

/**
 * The §5 credential fields. organizationId is a string in every well-formed request; a number
 * (in a JSON body) or a repeated query parameter (an array) are what a careless or hostile
 * client sends instead.
 */
export type Creds = {
  readonly apiKey?: string;
  readonly organizationId?: string | number | null | readonly string[];
};

/** Where a request's credentials ride. */
export interface Carry {
  readonly body?: Creds;
  readonly query?: Creds;
  readonly header?: string;
}

/** The credentials in the place §5 gives the endpoint. */
export const inCarrier = (ep: Endpoint, creds: Creds): Carry =>
  ep.carrier === 'body' ? { body: creds } : { query: creds };

/** The other place: the query for POST and PUT, a JSON body for DELETE (a GET has none). */
export const elsewhere = (ep: Endpoint, creds: Creds): Carry =>
  ep.carrier === 'body' ? { query: creds } : { body: creds };

/** Sends a request of the table with the credentials where `carry` puts them. */
export function send(t: Conformance, req: Request, carry: Carry): Promise<Reply> {
  const hasBody = req.endpoint.carrier === 'body' || carry.body !== undefined;
  return t.http.call(req.endpoint.method, req.path, {
    ...(hasBody ? { body: { ...req.fields, ...carry.body } } : {}),
    // A query has no null: such a parameter is left out.
    ...(carry.query === undefined
      ? {}
      : { query: { ...carry.query, organizationId: carry.query.organizationId ?? undefined } }),
    ...(carry.header === undefined ? {} : { headers: { authorization: carry.header } }),
  });
}

/** A key no target issued. */
export const unknownKey = (t: Conformance) => `eac-unknown-${t.faker.string.alphanumeric(32)}`;

/**
 * What a cell reads to tell whether a request changed anything: reads over the API (each a
 * string, read with the account's own key) and the accounts whose snapshot to take when the
 * target offers the snapshot hook.
 */
export interface Watch {
  readonly reads: readonly (() => Promise<string>)[];
  readonly accounts: readonly World[];
}

/** One reading of everything a watch covers. */
export interface Reading {
  readonly api: readonly string[];
  readonly snapshots: readonly (string | undefined)[];
}

/**
 * Reads the watched state. The snapshots come after the API reads: a read that writes
 * (organizationExists registers its probe user, the same way every time) has then made its
 * write in both readings, so only the request under test can tell them apart.
 */
export async function readWatch(t: Conformance, watch: Watch): Promise<Reading> {
  const api: string[] = [];
  for (const read of watch.reads) api.push(await read());
  const snapshots: (string | undefined)[] = [];
  // A credentials-file account is shared by tests running at the same time: its whole
  // snapshot moves under them, so only the API reads (of what this test made) judge it.
  for (const w of watch.accounts)
    snapshots.push(w.shared ? undefined : await accountSnapshot(t, w));
  return { api, snapshots };
}

/**
 * Fails unless the second reading equals the first: the API reads first (they say what
 * changed in the document's terms), then each account's snapshot.
 */
export function expectUnchanged(before: Reading, after: Reading, what: string): void {
  before.api.forEach((was, i) => {
    expect(after.api[i], `${what} must change nothing, yet the account reads differently`).toBe(
      was,
    );
  });
  before.snapshots.forEach((was, i) => {
    if (was === undefined) return;
    expect(
      after.snapshots[i],
      `${what} must change nothing, yet the target's snapshot of an account differs`,
    ).toBe(was);
  });
}

/**
 * A refused request changes nothing (security clauses auth.refused.changes-nothing and
 * auth.isolation.refused-changes-nothing): reads the watch, sends, and when the answer is a
 * refusal reads again and fails on any difference. Returns the answer; a success is left to
 * the caller to judge.
 */
export async function sendWatched(
  t: Conformance,
  req: Request,
  carry: Carry,
  watch: Watch,
  what: string,
): Promise<Reply> {
  const before = await readWatch(t, watch);
  const res = await send(t, req, carry);
  if (res.status >= 400) expectUnchanged(before, await readWatch(t, watch), what);
  return res;
}
