import { expect } from 'vitest';
import { z } from 'zod';
import type { ClauseId } from '../../spec/clauses/index.ts';
import { ErrorEnvelope } from '../../spec/schemas/common.ts';
import type { HookName } from '../../spec/schemas/hooks.ts';
import { externalId, organizationName, personName, properties } from '../../fixtures/builders.ts';
import {
  buildWorld,
  createRole,
  registerOrganization,
  registerUser,
  type World,
} from '../../fixtures/world.ts';
import { conformance, probe, type Conformance } from '../harness/conformance.ts';
import { roleList, userExists, organizationExists, storedUser } from '../harness/readback.ts';
import { rolesPath, rolePath, userPath } from '../harness/paths.ts';
import type { Reply } from '../harness/http.ts';
import { describeAnswer, expectClientError, expectSuccess, refusedAs } from '../harness/expect.ts';

// §5: the credential rules, checked on every identity endpoint of §4.1–§4.9. Each endpoint is
// a row of data; every variant below is generated once per row (STYLE 14).

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
/** §5 table: POST and PUT carry the key in the JSON body, GET and DELETE in the query. */
type Place = 'body' | 'query';
type Creds = { apiKey?: string; organizationId?: string };

/** A request that succeeds on its world once credentials are added to it. */
interface Aimed {
  readonly path: string;
  /** The JSON body of a POST or PUT, credentials left out; GET and DELETE carry none. */
  readonly fields: Readonly<Record<string, unknown>>;
  /** Reads, with the world's own key, the part of its state the request would change. */
  readonly state?: () => Promise<string>;
  /** Whether the document makes every success change what `state` reads. */
  readonly effectShown?: boolean;
}

interface Endpoint {
  readonly name: string;
  readonly method: Method;
  readonly place: Place;
  /** Host hooks `valid` uses beyond accounts and projects. */
  readonly needs: readonly HookName[];
  /** Whether the request changes state the API can read back (`valid` then sets `state`). */
  readonly readsBack: boolean;
  /** Builds, on `w`, a request that succeeds, creating the role or user it names first. */
  readonly valid: (t: Conformance, w: World) => Promise<Aimed>;
}

const endpoints: readonly Endpoint[] = [
  {
    name: 'role update',
    method: 'PUT',
    place: 'body',
    needs: ['roles'],
    readsBack: true,
    valid: async (t, w) => {
      const role = await createRole(t, w, { addChart: true });
      const fields = { name: `${role.name} renamed`, permissions: { readOnly: true } };
      return { path: rolePath(w, role.id), fields, state: () => roleList(t, w), effectShown: true };
    },
  },
  {
    name: 'role list',
    method: 'GET',
    place: 'query',
    needs: [],
    readsBack: false,
    valid: (_t, w) => Promise.resolve({ path: rolesPath(w), fields: {} }),
  },
  {
    name: 'role delete',
    method: 'DELETE',
    place: 'query',
    needs: ['roles'],
    readsBack: true,
    valid: async (t, w) => {
      const role = await createRole(t, w);
      return {
        path: rolePath(w, role.id),
        fields: {},
        state: () => roleList(t, w),
        effectShown: true,
      };
    },
  },
  {
    name: 'register-organization',
    method: 'POST',
    place: 'body',
    needs: [],
    readsBack: true,
    valid: (t, w) => {
      const ext = externalId(t.faker);
      const fields = {
        projectId: w.projectId,
        name: organizationName(t.faker),
        externalId: ext,
        properties: properties(t.faker),
      };
      return Promise.resolve({
        path: '/v1/api/projects/register-organization',
        fields,
        state: () => organizationExists(t, w, ext),
        effectShown: true,
      });
    },
  },
  {
    name: 'register-user',
    method: 'POST',
    place: 'body',
    needs: [],
    readsBack: true,
    valid: (t, w) => {
      const userId = t.faker.string.uuid();
      const fields = {
        projectId: w.projectId,
        name: personName(t.faker),
        properties: properties(t.faker),
        userId,
      };
      return Promise.resolve({
        path: '/v1/api/projects/register-user',
        fields,
        state: () => userExists(t, w, userId),
        effectShown: true,
      });
    },
  },
  {
    name: 'user update',
    method: 'PUT',
    place: 'body',
    needs: [],
    readsBack: true,
    valid: async (t, w) => {
      const { userId, body } = await registerUser(t, w);
      const fields = {
        name: `${body.name} (renamed)`,
        properties: { ...body.properties, tier: 'revoked' },
      };
      // What the token shows of a user is not in the document, so a success may not show here.
      return {
        path: userPath(w, userId),
        fields,
        state: () => storedUser(t, w, userId),
        effectShown: false,
      };
    },
  },
  {
    name: 'user-token',
    method: 'POST',
    place: 'body',
    needs: [],
    readsBack: false,
    valid: async (t, w) => {
      const { userId } = await registerUser(t, w);
      return { path: '/v1/api/projects/user-token', fields: { userId } };
    },
  },
  {
    name: 'embed-token',
    method: 'POST',
    place: 'body',
    needs: [],
    readsBack: true,
    valid: (t, w) => {
      // Members of organization and user are the reference's decision T5 (§4.8 does not show them).
      const ext = externalId(t.faker);
      const userId = t.faker.string.uuid();
      const fields = {
        projectId: w.projectId,
        organization: {
          externalId: ext,
          name: organizationName(t.faker),
          properties: properties(t.faker),
        },
        user: { id: userId, name: personName(t.faker), properties: properties(t.faker) },
      };
      const state = async () =>
        `${await organizationExists(t, w, ext)}, ${await userExists(t, w, userId)}`;
      return Promise.resolve({
        path: '/v1/api/projects/embed-token',
        fields,
        state,
        effectShown: true,
      });
    },
  },
  {
    name: 'register-tenant',
    method: 'POST',
    place: 'body',
    needs: [],
    readsBack: false,
    valid: (t) => {
      // Field names are the reference's decision N1 (§4.9 names the concepts only).
      const fields = {
        name: organizationName(t.faker),
        tenantColumns: { customer_id: externalId(t.faker) },
      };
      return Promise.resolve({ path: '/v1/api/tenant/register-tenant', fields });
    },
  },
];

/** Where a request's credentials ride. */
interface Carry {
  readonly body?: Creds;
  readonly query?: Creds;
  readonly header?: string;
}

/** One request: the world it aims at, what it asks and how it carries credentials. */
interface Shot extends Carry {
  readonly on: World;
  readonly aimed: Aimed;
}

const inCarrier = (ep: Endpoint, creds: Creds): Carry =>
  ep.place === 'body' ? { body: creds } : { query: creds };

/** The other place of §5: the query for POST and PUT, a JSON body for DELETE. GET has none. */
function elsewhere(ep: Endpoint, creds: Creds): Carry {
  return ep.place === 'body' ? { query: creds } : { body: creds };
}

function fire(t: Conformance, ep: Endpoint, shot: Shot): Promise<Reply> {
  const hasBody = ep.place === 'body' || shot.body !== undefined;
  return t.http.call(ep.method, shot.aimed.path, {
    ...(hasBody ? { body: { ...shot.aimed.fields, ...shot.body } } : {}),
    ...(shot.query === undefined ? {} : { query: shot.query }),
    ...(shot.header === undefined ? {} : { headers: { authorization: shot.header } }),
  });
}

const answers = (status: number, code: string, reason?: string) => (res: Reply) =>
  refusedAs(res, status, code, reason === undefined ? {} : { reason });

/**
 * Decision C1: refused as misplaced, and the message names the place the endpoint reads
 * (the part before "not as", which names where the key was found instead).
 */
const misplaced = (res: Reply, ep: Endpoint) =>
  answers(401, 'UNAUTHORIZED', 'api-key-misplaced')(res) &&
  (ErrorEnvelope.safeParse(res.body).data?.error.message ?? '')
    .split(' not as ')[0]!
    .includes(ep.place === 'body' ? 'JSON body' : 'query');

const unknownKey = (t: Conformance) => `eac-unknown-${t.faker.string.alphanumeric(32)}`;
const carrierClause = (ep: Endpoint): ClauseId =>
  ep.place === 'body' ? 'auth.api-key.body-for-post-put' : 'auth.api-key.query-for-get-delete';
const needsOf = (ep: Endpoint, more: readonly HookName[] = []): HookName[] => [
  'accounts',
  'projects',
  ...ep.needs,
  ...more,
];

interface Acceptance {
  readonly label: string;
  readonly clauses: (ep: Endpoint) => ClauseId[];
  readonly needs?: readonly HookName[];
  readonly stage: (t: Conformance, ep: Endpoint) => Promise<Shot>;
}

const acceptances: readonly Acceptance[] = [
  {
    label: 'an organization-bound key in its carrier, without organizationId, is accepted',
    clauses: (ep) => [carrierClause(ep), 'auth.org-bound.organization-id-ignored'],
    stage: async (t, ep) => {
      const w = await buildWorld(t);
      return {
        on: w,
        aimed: await ep.valid(t, w),
        ...inCarrier(ep, { apiKey: w.account.orgBoundKey }),
      };
    },
  },
  {
    label:
      'an organization-bound key with another account\u2019s organizationId acts on its own account',
    clauses: () => ['auth.org-bound.organization-id-ignored'],
    stage: async (t, ep) => {
      const w = await buildWorld(t);
      const other = await buildWorld(t);
      const creds = { apiKey: w.account.orgBoundKey, organizationId: other.account.organizationId };
      return { on: w, aimed: await ep.valid(t, w), ...inCarrier(ep, creds) };
    },
  },
  {
    label: 'a user-scoped key with its own organizationId is accepted',
    clauses: (ep) => [
      'auth.api-key.user-scoped',
      'auth.organization-id.customer-org',
      carrierClause(ep),
    ],
    stage: async (t, ep) => {
      const w = await buildWorld(t);
      return { on: w, aimed: await ep.valid(t, w), ...inCarrier(ep, w.creds('user-scoped')) };
    },
  },
  {
    label: 'a user-scoped key acts on a second account its holder was made a member of',
    clauses: () => ['auth.api-key.user-scoped'],
    needs: ['members'],
    stage: async (t, ep) => {
      const first = await buildWorld(t);
      const second = await buildWorld(t);
      await t.hooks.addMember(second.account.organizationId, first.account.userScopedKey);
      const creds = {
        apiKey: first.account.userScopedKey,
        organizationId: second.account.organizationId,
      };
      return { on: second, aimed: await ep.valid(t, second), ...inCarrier(ep, creds) };
    },
  },
];

interface Refusal {
  readonly label: (ep: Endpoint) => string;
  /** Clauses that demand the refusal; empty where the document leaves even that open. */
  readonly must: (ep: Endpoint) => ClauseId[];
  /** The unspecified clauses on the exact answer, and whether a reply is the recorded decision. */
  readonly answer?: {
    readonly clauses: ClauseId[];
    readonly decided: (res: Reply, ep: Endpoint) => boolean;
  };
  /** The document allows the request to succeed (its probe then records, never fails). */
  readonly mayPass?: boolean;
  /** The reference's decision is to accept the request, so there is no refusal to check. */
  readonly acceptedByDecision?: boolean;
  readonly applies?: (ep: Endpoint) => boolean;
  readonly stage: (t: Conformance, ep: Endpoint) => Promise<Shot>;
}

const refusals: readonly Refusal[] = [
  {
    label: () => 'a user-scoped key without organizationId',
    must: () => ['auth.user-scoped.organization-id-required'],
    answer: {
      clauses: ['auth.user-scoped.missing-organization-id'],
      decided: answers(401, 'UNAUTHORIZED', 'organization-id-required'),
    },
    stage: async (t, ep) => {
      const w = await buildWorld(t);
      return {
        on: w,
        aimed: await ep.valid(t, w),
        ...inCarrier(ep, { apiKey: w.account.userScopedKey }),
      };
    },
  },
  {
    label: () => 'a user-scoped key naming another account\u2019s organization',
    must: () => ['auth.user-scoped.membership-verified'],
    answer: {
      clauses: ['auth.user-scoped.not-member'],
      decided: answers(403, 'FORBIDDEN', 'not-a-member'),
    },
    // The request aims at the other account's own project, as it would if membership were not checked.
    stage: async (t, ep) => {
      const mine = await buildWorld(t);
      const theirs = await buildWorld(t);
      const creds = {
        apiKey: mine.account.userScopedKey,
        organizationId: theirs.account.organizationId,
      };
      return { on: theirs, aimed: await ep.valid(t, theirs), ...inCarrier(ep, creds) };
    },
  },
  {
    label: () => 'a user-scoped key naming an organization that does not exist',
    must: () => ['auth.user-scoped.membership-verified'],
    answer: {
      clauses: ['auth.user-scoped.not-member'],
      decided: answers(403, 'FORBIDDEN', 'not-a-member'),
    },
    stage: async (t, ep) => {
      const w = await buildWorld(t);
      const creds = { apiKey: w.account.userScopedKey, organizationId: t.faker.string.uuid() };
      return { on: w, aimed: await ep.valid(t, w), ...inCarrier(ep, creds) };
    },
  },
  {
    label: (ep) => `a key only in ${ep.place === 'body' ? 'the query' : 'a JSON body'}`,
    must: (ep) => [carrierClause(ep)],
    answer: { clauses: ['auth.api-key.misplaced'], decided: misplaced },
    // A GET has no body; its only other place is a header, whose reading §5 leaves open (below).
    applies: (ep) => ep.method !== 'GET',
    stage: async (t, ep) => {
      const w = await buildWorld(t);
      return {
        on: w,
        aimed: await ep.valid(t, w),
        ...elsewhere(ep, { apiKey: w.account.orgBoundKey }),
      };
    },
  },
  {
    label: () => 'a key only in an authorization header',
    must: () => [],
    answer: {
      clauses: ['auth.identity.carriers-only', 'auth.api-key.misplaced'],
      decided: misplaced,
    },
    mayPass: true,
    stage: async (t, ep) => {
      const w = await buildWorld(t);
      return { on: w, aimed: await ep.valid(t, w), header: `Bearer ${w.account.orgBoundKey}` };
    },
  },
  {
    label: () => 'no credentials at all',
    must: () => [],
    answer: {
      clauses: ['auth.credentials.missing'],
      decided: answers(401, 'UNAUTHORIZED', 'missing-credentials'),
    },
    stage: async (t, ep) => {
      const w = await buildWorld(t);
      return { on: w, aimed: await ep.valid(t, w) };
    },
  },
  {
    label: () => 'an unknown key',
    must: () => [],
    answer: {
      clauses: ['auth.api-key.unknown'],
      decided: answers(401, 'UNAUTHORIZED', 'invalid-api-key'),
    },
    stage: async (t, ep) => {
      const w = await buildWorld(t);
      return { on: w, aimed: await ep.valid(t, w), ...inCarrier(ep, { apiKey: unknownKey(t) }) };
    },
  },
  {
    label: () =>
      'a user-scoped key with a project organization\u2019s externalId as organizationId',
    must: () => ['auth.organization-id.not-external-id'],
    stage: async (t, ep) => {
      const w = await buildWorld(t);
      const org = await registerOrganization(t, w);
      const creds = { apiKey: w.account.userScopedKey, organizationId: org.externalId };
      return { on: w, aimed: await ep.valid(t, w), ...inCarrier(ep, creds) };
    },
  },
  {
    label: () => 'an organization-bound key with organizationId \u2018not-a-uuid\u2019',
    must: () => [],
    answer: {
      clauses: ['auth.org-bound.organization-id-shape'],
      decided: (res: Reply) => res.status === 200,
    },
    mayPass: true,
    acceptedByDecision: true,
    stage: async (t, ep) => {
      const w = await buildWorld(t);
      const creds = { apiKey: w.account.orgBoundKey, organizationId: 'not-a-uuid' };
      return { on: w, aimed: await ep.valid(t, w), ...inCarrier(ep, creds) };
    },
  },
];

for (const ep of endpoints) {
  for (const row of acceptances) {
    conformance(
      row.clauses(ep),
      `${ep.name}: ${row.label}`,
      async (t) => {
        const shot = await row.stage(t, ep);
        const before = shot.aimed.effectShown === true ? await shot.aimed.state?.() : undefined;
        expectSuccess(await fire(t, ep, shot), z.unknown(), `${ep.name} with ${row.label}`);
        // A success on a project, role or user that exists only in the aimed-at account shows
        // it acted there; where the document makes the effect visible, read it back too.
        if (before !== undefined) {
          expect(
            await shot.aimed.state?.(),
            'the request should have changed the account it named',
          ).not.toBe(before);
        }
      },
      { needs: needsOf(ep, row.needs) },
    );
  }

  probe(
    ['auth.identity.carriers-only'],
    `${ep.name}: an authorization header beside the key in its carrier`,
    async (t) => {
      const w = await buildWorld(t);
      const shot = {
        on: w,
        aimed: await ep.valid(t, w),
        ...inCarrier(ep, w.creds()),
        header: `Bearer ${unknownKey(t)}`,
      };
      const res = await fire(t, ep, shot);
      t.observe(
        res.status === 200
          ? 'the header was ignored'
          : `the header was read: ${describeAnswer(res)}`,
        res.status === 200,
      );
    },
    { needs: needsOf(ep) },
  );

  for (const row of refusals.filter((r) => r.applies?.(ep) ?? true)) {
    const label = row.label(ep);
    const must = row.must(ep);
    if (must.length > 0) {
      conformance(
        must,
        `${ep.name}: ${label} is refused`,
        async (t) => {
          const res = await fire(t, ep, await row.stage(t, ep));
          expectClientError(res, `${ep.name} with ${label}`);
        },
        { needs: needsOf(ep) },
      );
    }

    const { answer: decision } = row;
    if (decision !== undefined) {
      probe(
        decision.clauses,
        `${ep.name}: the answer to ${label}`,
        async (t) => {
          const res = await fire(t, ep, await row.stage(t, ep));
          if (row.mayPass !== true || res.status >= 400)
            expectClientError(res, `${ep.name} with ${label}`);
          t.observe(describeAnswer(res), decision.decided(res, ep));
        },
        { needs: needsOf(ep) },
      );
    }

    if (!ep.readsBack || row.acceptedByDecision === true) continue;
    probe(
      ['errors.rejected-request-changes-nothing'],
      `${ep.name}: ${label} leaves the account as it was`,
      async (t) => {
        const shot = await row.stage(t, ep);
        const read = shot.aimed.state;
        if (read === undefined)
          throw new Error(`the ${ep.name} row says it reads back but sets no state`);
        const before = await read();
        const res = await fire(t, ep, shot);
        if (res.status < 400)
          t.notRun(`the target accepted the request (${res.status}); there is no refusal to check`);
        const after = await read();
        t.observe(
          after === before ? 'nothing changed' : `changed: ${before} -> ${after}`,
          after === before,
        );
      },
      { needs: needsOf(ep) },
    );
  }
}
