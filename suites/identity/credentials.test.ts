import { expect } from 'vitest';
import { z } from 'zod';
import type { ClauseId } from '../../spec/clauses/index.ts';
import type { ReliedClause } from '../../spec/reliance.ts';
import { ErrorEnvelope } from '../../spec/schemas/common.ts';
import type { HookName } from '../../spec/schemas/hooks.ts';
import { externalId } from '../harness/builders.ts';
import {
  buildWorld,
  createRole,
  registerOrganization,
  registerUser,
  type World,
} from '../harness/given/accounts.ts';
import { conformance, probe, type Conformance, states } from '../harness/conformance.ts';
import { signInFor } from '../harness/given/sign-in.ts';
import { slug } from '../harness/meta.ts';
import {
  elsewhere,
  expectUnchanged,
  inCarrier,
  readWatch,
  send,
  sendWatched,
  unknownKey,
  type Carry,
  type Watch,
} from '../harness/credential-table.ts';
import * as request from '../harness/endpoints.ts';
import type { Endpoint, Request } from '../harness/endpoints.ts';
import type { Reply } from '../harness/http.ts';
import { organizationExists, roleList, userAsTokenShows, userExists } from '../harness/readback.ts';
import { describeAnswer, expectClientError, expectSuccess, refusedAs } from '../harness/expect.ts';
import { cause } from '../harness/causes.ts';

// §5: the credential rules, checked on every identity endpoint of §4.1–§4.9. Each endpoint is
// a row of the endpoint table; every column below is generated once per row (STYLE 14).

/** A request that succeeds on its world once credentials are added, and what it would change. */
interface Staged {
  readonly req: Request;
  /** Reads, with the world's own key, the part of its state the request would change. */
  readonly reads: readonly (() => Promise<string>)[];
}

interface Row {
  readonly ep: Endpoint;
  /** Host hooks `stage` uses beyond accounts and projects. */
  readonly needs: readonly HookName[];
  /** Unspecified clauses the reads lean on (what a token shows, what embed-token creates). */
  readonly readsRely: readonly ClauseId[];
  /** Unspecified clauses a success of the staged request leans on, beyond the endpoint's. */
  readonly acceptRely?: readonly ClauseId[];
  /** Whether every success changes what the reads read (the document makes the effect visible). */
  readonly effectShown: boolean;
  readonly stage: (t: Conformance, w: World) => Promise<Staged>;
}

const rows: readonly Row[] = [
  {
    ep: request.ROLE_UPDATE,
    needs: ['roles'],
    readsRely: [],
    effectShown: true,
    stage: async (t, w) => {
      const role = await createRole(t, w, { addChart: true });
      return {
        req: request.roleUpdate(t, w, role.id),
        reads: [() => roleList(t, w)],
      };
    },
  },
  {
    ep: request.ROLE_LIST,
    needs: [],
    readsRely: [],
    effectShown: false,
    stage: (_t, w) => Promise.resolve({ req: request.roleList(w), reads: [] }),
  },
  {
    ep: request.ROLE_DELETE,
    needs: ['roles'],
    readsRely: [],
    effectShown: true,
    stage: async (t, w) => {
      const role = await createRole(t, w);
      return {
        req: request.roleDelete(w, role.id),
        reads: [() => roleList(t, w)],
      };
    },
  },
  {
    ep: request.REGISTER_ORGANIZATION_EP,
    needs: [],
    readsRely: [],
    effectShown: true,
    stage: (t, w) => {
      const ext = externalId(t.faker);
      return Promise.resolve({
        req: request.registerOrganization(t, w, ext),
        reads: [() => organizationExists(t, w, ext)],
      });
    },
  },
  {
    ep: request.REGISTER_USER_EP,
    needs: [],
    readsRely: [],
    effectShown: true,
    stage: (t, w) => {
      const userId = t.faker.string.uuid();
      return Promise.resolve({
        req: request.registerUser(t, w, { userId }),
        reads: [() => userExists(t, w, userId)],
      });
    },
  },
  {
    ep: request.USER_UPDATE,
    needs: [],
    // What a token shows of a user is our decision, so a success is not checked through it.
    readsRely: ['tokens.claims'],
    effectShown: false,
    stage: async (t, w) => {
      const { userId, body } = await registerUser(t, w);
      const req = request.userUpdate(w, userId, {
        name: `${body.name} (renamed)`,
        properties: { ...body.properties, tier: 'revoked' },
      });
      return { req, reads: [() => userAsTokenShows(t, w, userId)] };
    },
  },
  {
    ep: request.USER_TOKEN_EP,
    needs: [],
    readsRely: [],
    effectShown: false,
    stage: async (t, w) => {
      const { userId } = await registerUser(t, w);
      return { req: request.userToken(userId), reads: [] };
    },
  },
  {
    ep: request.EMBED_TOKEN_EP,
    needs: [],
    readsRely: [],
    effectShown: true,
    // Where the profile follows tokens.embed-token.creates, the sign-in names an organization
    // and a user the project does not hold, and the reads show it created them; otherwise both
    // are registered first (§4.4, §4.5) and the sign-in, found as it stands, shows no effect.
    stage: async (t, w) => {
      const who = await signInFor(t, w, { userId: t.faker.string.uuid() });
      return {
        req: request.signInRequest(t, w, who),
        reads: who.creates
          ? [
              () => organizationExists(t, w, who.externalId),
              () => userExists(t, w, who.userId ?? ''),
            ]
          : [],
      };
    },
  },
  {
    ep: request.REGISTER_TENANT_EP,
    needs: [],
    readsRely: [],
    effectShown: false,
    // No API call reads a tenant back; only a snapshot shows whether one was registered.
    stage: (t) =>
      Promise.resolve({
        req: request.registerTenant(t, { columns: { customer_id: externalId(t.faker) } }),
        reads: [],
      }),
  },
];

/** One cell: the world the request aims at, the request and how it carries credentials. */
interface Shot {
  readonly on: World;
  readonly staged: Staged;
  readonly carry: Carry;
  /** Other accounts the credentials name or belong to: the request must not touch them. */
  readonly bystanders?: readonly World[];
}

const watchOf = (shot: Shot): Watch => ({
  reads: shot.staged.reads,
  accounts: [shot.on, ...(shot.bystanders ?? [])],
});

const answers = (status: number, code: string, reason?: string) => (res: Reply) =>
  refusedAs(res, status, code, reason === undefined ? {} : { reason });

/**
 * Decision auth.api-key.misplaced: refused as misplaced, and the message names the place the
 * endpoint reads (the part before "not as", which names where the key was found instead).
 */
const misplaced = (res: Reply, ep: Endpoint) =>
  answers(401, 'UNAUTHORIZED', 'api-key-misplaced')(res) &&
  (ErrorEnvelope.safeParse(res.body).data?.error.message ?? '')
    .split(' not as ')[0]!
    .includes(ep.carrier === 'body' ? 'JSON body' : 'query');

const needsOf = (row: Row, more: readonly HookName[] = []): HookName[] => [
  'accounts',
  'projects',
  ...row.needs,
  ...more,
];

/** A cell on the world's own project with the given credentials. */
async function ownShot(t: Conformance, row: Row, carry: (w: World) => Carry): Promise<Shot> {
  const w = await buildWorld(t);
  return { on: w, staged: await row.stage(t, w), carry: carry(w) };
}

interface Acceptance {
  readonly label: string;
  readonly clauses: (ep: Endpoint) => ClauseId[];
  readonly needs?: readonly HookName[];
  /** Unspecified clauses the cell leans on beyond the endpoint's own. */
  readonly relies?: readonly ClauseId[];
  /**
   * The decision that makes the cell a success where the document also allows a refusal: a
   * profile following it is held to the success; on any other a refusal may answer instead,
   * and must then be the client's error and change nothing.
   */
  readonly successDecided?: ReliedClause;
  /** The label the cell's id keeps (meta.ts slug) where the label was reworded. */
  readonly idLabel?: string;
  readonly applies?: (ep: Endpoint) => boolean;
  readonly stage: (t: Conformance, row: Row) => Promise<Shot>;
}

/**
 * An organizationId sent beside an organization-bound key (§5 rule 3 ignores any value). The
 * document types the field as a UUID, so whether a value of another shape is still validated is
 * open (auth.org-bound.organization-id-shape): on a target following the decision that it is
 * not, those cells must succeed; on another, a refusal as the client's error that changes
 * nothing is the other answer the document allows.
 */
interface IgnoredId {
  readonly label: string;
  readonly shapeOpen: boolean;
  /** The value sent, or one made per run: a second account's organization UUID, a fresh UUID. */
  readonly value: string | number | null | { readonly made: 'other-account' | 'random-uuid' };
}

const ignoredIds: readonly IgnoredId[] = [
  {
    label: 'another account\u2019s organizationId',
    shapeOpen: false,
    value: { made: 'other-account' },
  },
  { label: 'a UUID naming no organization', shapeOpen: false, value: { made: 'random-uuid' } },
  { label: 'organizationId \u2018not-a-uuid\u2019', shapeOpen: true, value: 'not-a-uuid' },
  { label: 'an empty organizationId', shapeOpen: true, value: '' },
  { label: 'a number as organizationId', shapeOpen: true, value: 4711 },
  { label: 'organizationId null', shapeOpen: true, value: null },
];

async function idOf(
  t: Conformance,
  form: IgnoredId,
): Promise<{ id: string | number | null; bystander?: World }> {
  const { value } = form;
  if (typeof value !== 'object' || value === null) return { id: value };
  if (value.made === 'random-uuid') return { id: t.faker.string.uuid() };
  const other = await buildWorld(t);
  return { id: other.account.organizationId, bystander: other };
}

const acceptances: readonly Acceptance[] = [
  {
    label: 'an organization-bound key in its carrier, without organizationId, is accepted',
    clauses: (ep) => [ep.carrierClause, 'auth.org-bound.organization-id-ignored'],
    stage: (t, row) => ownShot(t, row, (w) => inCarrier(row.ep, { apiKey: w.account.orgBoundKey })),
  },
  // §5 rule 3, one cell per value form: every organizationId sent with the key is ignored.
  ...ignoredIds.map((form): Acceptance => ({
    label: form.shapeOpen
      ? `an organization-bound key with ${form.label} acts on its own account, or is refused and changes nothing`
      : `an organization-bound key with ${form.label} acts on its own account`,
    clauses: () =>
      form.shapeOpen
        ? ['auth.org-bound.organization-id-ignored', 'auth.org-bound.organization-id-shape']
        : ['auth.org-bound.organization-id-ignored'],
    // A JSON null has no query form.
    applies: (ep) => form.value !== null || ep.carrier === 'body',
    ...(form.shapeOpen
      ? {
          successDecided: 'auth.org-bound.organization-id-shape',
          idLabel: `an organization-bound key with ${form.label} acts on its own account`,
        }
      : {}),
    stage: async (t, row) => {
      const w = await buildWorld(t);
      const { id, bystander } = await idOf(t, form);
      return {
        on: w,
        staged: await row.stage(t, w),
        carry: inCarrier(row.ep, { apiKey: w.account.orgBoundKey, organizationId: id }),
        ...(bystander === undefined ? {} : { bystanders: [bystander] }),
      };
    },
  })),
  {
    label: 'a user-scoped key with its own organizationId is accepted',
    clauses: (ep) => [
      'auth.api-key.user-scoped',
      'auth.organization-id.customer-org',
      ep.carrierClause,
    ],
    stage: (t, row) => ownShot(t, row, (w) => inCarrier(row.ep, w.creds('user-scoped'))),
  },
  {
    label: 'a user-scoped key acts on a second account its holder was made a member of',
    clauses: () => ['auth.api-key.user-scoped'],
    needs: ['members'],
    stage: async (t, row) => {
      const first = await buildWorld(t);
      const second = await buildWorld(t);
      await t.hooks.addMember(second.account.organizationId, first.account.userScopedKey);
      const creds = {
        apiKey: first.account.userScopedKey,
        organizationId: second.account.organizationId,
      };
      return { on: second, staged: await row.stage(t, second), carry: inCarrier(row.ep, creds) };
    },
  },
];

interface Refusal {
  readonly label: (ep: Endpoint) => string;
  /**
   * Clauses that demand the refusal: the document's, or a security clause where the document
   * takes it for granted; empty where even the refusal is left open.
   */
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
  readonly stage: (t: Conformance, row: Row) => Promise<Shot>;
}

const refusals: readonly Refusal[] = [
  {
    label: () => 'a user-scoped key without organizationId',
    must: () => ['auth.user-scoped.organization-id-required'],
    answer: {
      clauses: ['auth.user-scoped.missing-organization-id'],
      decided: answers(401, 'UNAUTHORIZED', 'organization-id-required'),
    },
    stage: (t, row) =>
      ownShot(t, row, (w) => inCarrier(row.ep, { apiKey: w.account.userScopedKey })),
  },
  {
    label: () => 'a user-scoped key naming another account\u2019s organization',
    must: () => ['auth.user-scoped.membership-verified'],
    answer: {
      clauses: ['auth.user-scoped.not-member'],
      decided: answers(403, 'FORBIDDEN', 'not-a-member'),
    },
    // The request aims at the other account's own project, as it would if membership were
    // not checked; that account has data, so a write there would show.
    stage: async (t, row) => {
      const mine = await buildWorld(t);
      const theirs = await buildWorld(t);
      const creds = {
        apiKey: mine.account.userScopedKey,
        organizationId: theirs.account.organizationId,
      };
      return {
        on: theirs,
        staged: await row.stage(t, theirs),
        carry: inCarrier(row.ep, creds),
        bystanders: [mine],
      };
    },
  },
  {
    // Not a string where §5 wants an organization's id: a JSON number in a body, the parameter
    // given twice in a query. Either way it names no organization the key's user belongs to.
    label: (ep) =>
      ep.carrier === 'body'
        ? 'a user-scoped key with a number as organizationId'
        : 'a user-scoped key with organizationId given twice (another account\u2019s organization)',
    must: () => ['auth.user-scoped.membership-verified', 'errors.client-input.no-server-error'],
    stage: async (t, row) => {
      const mine = await buildWorld(t);
      const theirs = await buildWorld(t);
      const organizationId =
        row.ep.carrier === 'body'
          ? t.faker.number.int({ min: 1, max: 1e9 })
          : [theirs.account.organizationId, theirs.account.organizationId];
      return {
        on: theirs,
        staged: await row.stage(t, theirs),
        carry: inCarrier(row.ep, { apiKey: mine.account.userScopedKey, organizationId }),
        bystanders: [mine],
      };
    },
  },
  {
    label: () => 'a user-scoped key naming an organization that does not exist',
    must: () => ['auth.user-scoped.membership-verified'],
    answer: {
      clauses: ['auth.user-scoped.not-member'],
      decided: answers(403, 'FORBIDDEN', 'not-a-member'),
    },
    stage: (t, row) =>
      ownShot(t, row, (w) =>
        inCarrier(row.ep, {
          apiKey: w.account.userScopedKey,
          organizationId: t.faker.string.uuid(),
        }),
      ),
  },
  {
    label: (ep) => `a key only in ${ep.carrier === 'body' ? 'the query' : 'a JSON body'}`,
    // §5 tells the client where to send the key; whether a server also reads it from the other
    // place is open (auth.api-key.misplaced), so the answer is probed, never required.
    must: () => [],
    answer: { clauses: ['auth.api-key.misplaced'], decided: misplaced },
    mayPass: true,
    // A GET has no body; its only other place is a header, whose reading §5 leaves open (below).
    applies: (ep) => ep.method !== 'GET',
    stage: (t, row) => ownShot(t, row, (w) => elsewhere(row.ep, { apiKey: w.account.orgBoundKey })),
  },
  {
    label: () => 'a key only in an authorization header',
    must: () => [],
    answer: {
      clauses: ['auth.identity.carriers-only', 'auth.api-key.misplaced'],
      decided: misplaced,
    },
    mayPass: true,
    stage: (t, row) => ownShot(t, row, (w) => ({ header: `Bearer ${w.account.orgBoundKey}` })),
  },
  {
    label: () => 'no credentials at all',
    must: () => ['auth.credentials.required'],
    answer: {
      clauses: ['auth.credentials.missing'],
      decided: answers(401, 'UNAUTHORIZED', 'missing-credentials'),
    },
    stage: (t, row) => ownShot(t, row, () => ({})),
  },
  {
    label: () => 'an unknown key',
    must: () => ['auth.credentials.required'],
    answer: {
      clauses: ['auth.api-key.unknown'],
      decided: answers(401, 'UNAUTHORIZED', 'invalid-api-key'),
    },
    stage: (t, row) => ownShot(t, row, () => inCarrier(row.ep, { apiKey: unknownKey(t) })),
  },
  {
    label: () =>
      'a user-scoped key with a project organization\u2019s externalId as organizationId',
    must: () => ['auth.organization-id.not-external-id'],
    stage: async (t, row) => {
      const w = await buildWorld(t);
      const org = await registerOrganization(t, w);
      const creds = { apiKey: w.account.userScopedKey, organizationId: org.externalId };
      return { on: w, staged: await row.stage(t, w), carry: inCarrier(row.ep, creds) };
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
    stage: (t, row) =>
      ownShot(t, row, (w) =>
        inCarrier(row.ep, { apiKey: w.account.orgBoundKey, organizationId: 'not-a-uuid' }),
      ),
  },
];

for (const row of rows) {
  const { ep } = row;
  for (const col of acceptances.filter((a) => a.applies?.(ep) ?? true)) {
    conformance(
      col.clauses(ep),
      `${ep.name}: ${col.label}`,
      async (t) => {
        const shot = await col.stage(t, row);
        const before =
          row.effectShown && shot.staged.reads.length > 0
            ? await readWatch(t, watchOf(shot))
            : undefined;
        // Accounts the credentials merely name stay as they were (seen through a snapshot).
        const aside: Watch = { reads: [], accounts: shot.bystanders ?? [] };
        const asideBefore = await readWatch(t, aside);
        const refusable = col.successDecided !== undefined && !states(t, col.successDecided);
        const whole = refusable ? await readWatch(t, watchOf(shot)) : undefined;
        const res = await send(t, shot.staged.req, shot.carry);
        if (whole !== undefined && res.status >= 400) {
          expectClientError(res, `${ep.name} with ${col.label}`);
          expectUnchanged(whole, await readWatch(t, watchOf(shot)), `${ep.name} refused`);
          return;
        }
        if (col.successDecided !== undefined && !refusable) t.relyOn(col.successDecided);
        expectSuccess(res, z.unknown(), `${ep.name} with ${col.label}`);
        expectUnchanged(asideBefore, await readWatch(t, aside), 'an account the key only named');
        // A success on a project, role or user that exists only in the aimed-at account shows
        // it acted there; where the document makes the effect visible, read it back too.
        if (before !== undefined) {
          const after = await readWatch(t, watchOf(shot));
          expect(after.api, 'the request should have changed the account it named').not.toEqual(
            before.api,
          );
        }
      },
      {
        ...(col.idLabel === undefined ? {} : { id: slug(`${ep.name}: ${col.idLabel}`) }),
        needs: needsOf(row, col.needs),
        relies: [
          ...new Set([
            ...ep.relies,
            ...(row.acceptRely ?? []),
            ...(row.effectShown ? row.readsRely : []),
            ...(col.relies ?? []),
          ]),
        ],
        parts: [ep.part],
      },
    );
  }

  probe(
    ['auth.identity.carriers-only'],
    `${ep.name}: an authorization header beside the key in its carrier`,
    async (t) => {
      const shot = await ownShot(t, row, (w) => ({
        ...inCarrier(ep, w.creds()),
        header: `Bearer ${unknownKey(t)}`,
      }));
      const res = await send(t, shot.staged.req, shot.carry);
      t.observe(
        res.status === 200
          ? 'the header was ignored'
          : `the header was read: ${describeAnswer(res)}`,
        res.status === 200,
      );
    },
    { needs: needsOf(row), relies: [...ep.relies, ...(row.acceptRely ?? [])], parts: [ep.part] },
  );

  for (const col of refusals.filter((r) => r.applies?.(ep) ?? true)) {
    const label = col.label(ep);
    const must = col.must(ep);
    if (must.length > 0) {
      conformance(
        must,
        `${ep.name}: ${label} is refused`,
        async (t) => {
          const shot = await col.stage(t, row);
          expectClientError(await send(t, shot.staged.req, shot.carry), `${ep.name} with ${label}`);
        },
        { needs: needsOf(row), relies: ep.relies, parts: [ep.part] },
      );
    }

    const { answer: decision } = col;
    if (decision !== undefined) {
      probe(
        decision.clauses,
        `${ep.name}: the answer to ${label}`,
        async (t) => {
          const shot = await col.stage(t, row);
          const res = await send(t, shot.staged.req, shot.carry);
          if (col.mayPass !== true || res.status >= 400)
            expectClientError(res, `${ep.name} with ${label}`);
          t.observe(describeAnswer(res), decision.decided(res, ep));
        },
        {
          needs: needsOf(row),
          relies: [
            ...ep.relies,
            // The decided answer is a success of the staged request.
            ...(col.acceptedByDecision === true ? (row.acceptRely ?? []) : []),
          ],
          parts: [ep.part],
        },
      );
    }

    if (col.acceptedByDecision === true) continue;
    // §5 rules 1–3 refuse these requests; a refusal that still wrote would be worth nothing.
    conformance(
      ['auth.refused.changes-nothing'],
      `${ep.name}: ${label} changes nothing`,
      async (t) => {
        const shot = await col.stage(t, row);
        if (shot.staged.reads.length === 0 && !t.hooks.has('snapshot'))
          t.notRun(
            `no API call reads back what ${ep.name} changes, and the target has no snapshot hook`,
            cause.hook('snapshot'),
          );
        const res = await sendWatched(
          t,
          shot.staged.req,
          shot.carry,
          watchOf(shot),
          `${ep.name} refused for ${label}`,
        );
        // Where the document lets the request pass, an acceptance is one of its answers: the
        // clause asks only that a refusal wrote nothing (sendWatched read that on a refusal).
        if (res.status < 400 && col.mayPass !== true)
          t.notRun(
            `the target accepted the request (${res.status}); there is no refusal to check`,
            cause.other('the target accepted the request'),
          );
      },
      { needs: needsOf(row), relies: [...ep.relies, ...row.readsRely], parts: [ep.part] },
    );
  }
}
