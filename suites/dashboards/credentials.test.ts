import { expect } from 'vitest';
import type { ClauseId } from '../../spec/clauses/index.ts';
import { buildWorld } from '../harness/given/accounts.ts';
import { conformance, type Conformance } from '../harness/conformance.ts';
import { expectClientError } from '../harness/expect.ts';
import type { Reply } from '../harness/http.ts';
import {
  CONTENT,
  READ_BACK,
  dashboardsOf,
  dashboardsWorld,
  layoutOf,
  sharedDashboard,
  type DashboardsWorld,
  type Shared,
} from '../harness/given/dashboards.ts';
import { authorization } from '../harness/authorization.ts';
import { APPEND, CLONE, LIST_WORKSPACES, REMOVE, SAVE_FROM_CHAT } from '../harness/paths.ts';
import { mentionsId } from '../harness/ids.ts';

// §5 rules 1–3 on the v1 dashboard endpoints: a request without a credential the service
// issued, or with a user-scoped key that names no organization or one its holder is not a
// member of, is refused and changes nothing; an organization-bound key ignores organizationId.
// Endpoints are rows, credentials are columns (STYLE 14).

/** What a request carries: a secret for its §5 carrier, and an organizationId. */
interface Creds {
  readonly secret?: string;
  readonly organizationId?: string;
}

interface Row {
  readonly name: string;
  readonly send: (
    t: Conformance,
    x: DashboardsWorld,
    other: Shared,
    creds: Creds,
  ) => Promise<Reply>;
}

/** A POST of §5's authorization-header endpoints; organizationId in the JSON body. */
function post(t: Conformance, path: string, body: Record<string, unknown>, creds: Creds) {
  return t.http.post(
    path,
    {
      ...body,
      ...(creds.organizationId === undefined ? {} : { organizationId: creds.organizationId }),
    },
    { headers: creds.secret === undefined ? {} : authorization(t, creds.secret) },
  );
}

const rows: readonly Row[] = [
  {
    name: 'clone',
    send: (t, x, _o, creds) => post(t, CLONE, { sourceDashboardId: x.board.dashboardId }, creds),
  },
  {
    name: 'append-charts-from',
    send: (t, x, other, creds) =>
      post(
        t,
        APPEND,
        { sourceDashboardId: other.dashboardId, targetDashboardId: x.board.dashboardId },
        creds,
      ),
  },
  {
    name: 'remove-charts',
    send: (t, x, _o, creds) =>
      post(
        t,
        REMOVE,
        { dashboardId: x.board.dashboardId, chartIds: [x.board.charts[0]?.chartId] },
        creds,
      ),
  },
  {
    name: 'save-from-chat',
    send: (t, _x, _o, creds) =>
      post(
        t,
        SAVE_FROM_CHAT,
        { chartConfig: { title: 'Refused', sqlOverride: 'SELECT 1' }, name: 'Refused' },
        creds,
      ),
  },
  {
    name: 'list-workspaces',
    send: (t, _x, _o, creds) =>
      t.http.get(LIST_WORKSPACES, {
        query: {
          ...(creds.secret === undefined ? {} : { apiKey: creds.secret }),
          ...(creds.organizationId === undefined ? {} : { organizationId: creds.organizationId }),
        },
      }),
  },
];

interface Column {
  readonly name: string;
  readonly clauses: readonly ClauseId[];
  readonly creds: (t: Conformance, x: DashboardsWorld) => Promise<Creds>;
}

const columns: readonly Column[] = [
  {
    name: 'no credential',
    clauses: ['auth.refused.changes-nothing'],
    creds: () => Promise.resolve({}),
  },
  {
    name: 'a key the service never issued',
    clauses: ['auth.refused.changes-nothing'],
    creds: (t) => Promise.resolve({ secret: `eac-unknown-${t.faker.string.alphanumeric(32)}` }),
  },
  {
    name: 'a user-scoped key without organizationId',
    clauses: ['auth.user-scoped.organization-id-required', 'auth.refused.changes-nothing'],
    creds: (_t, x) => Promise.resolve({ secret: x.creds('user-scoped').apiKey }),
  },
  {
    name: "another hub user's key naming this organization",
    clauses: ['auth.user-scoped.membership-verified', 'auth.refused.changes-nothing'],
    creds: async (t, x) => {
      const stranger = await buildWorld(t);
      return {
        secret: stranger.creds('user-scoped').apiKey,
        organizationId: x.account.organizationId,
      };
    },
  },
];

for (const row of rows) {
  for (const column of columns) {
    conformance(
      column.clauses,
      `${row.name} with ${column.name} is refused, shows nothing and changes nothing`,
      async (t) => {
        const x = await dashboardsWorld(t, 2);
        const other = await sharedDashboard(t, x, 1);
        const creds = await column.creds(t, x);
        const before = layoutOf(await dashboardsOf(t, x, x.board.workspaceId));
        const res = await row.send(t, x, other, creds);
        expectClientError(res, `${row.name} with ${column.name}`);
        for (const secret of [
          x.board.name,
          x.board.workspaceId,
          ...x.board.charts.map((c) => c.name),
        ]) {
          expect(
            mentionsId(res.text, secret),
            `the refusal shows nothing of the account (${secret})`,
          ).toBe(false);
        }
        expect(layoutOf(await dashboardsOf(t, x, x.board.workspaceId)), 'nothing changed').toBe(
          before,
        );
      },
      { needs: CONTENT, parts: ['v1-dashboards'], relies: READ_BACK },
    );
  }
}

conformance(
  ['auth.org-bound.organization-id-ignored'],
  'an organization-bound key clones in its own account whatever organizationId names',
  async (t) => {
    const x = await dashboardsWorld(t, 1);
    const stranger = await buildWorld(t);
    const res = await post(
      t,
      CLONE,
      { sourceDashboardId: x.board.dashboardId },
      { secret: x.creds('org-bound').apiKey, organizationId: stranger.account.organizationId },
    );
    expect(res.status, `clone with another organizationId: ${res.text.slice(0, 300)}`).toBe(200);
    const id = (res.body as { data?: { dashboardId?: unknown } }).data?.dashboardId;
    expect(
      (await dashboardsOf(t, x, x.board.workspaceId)).map((d) => d.id),
      'the clone is in the key’s own account',
    ).toContain(id);
  },
  { needs: CONTENT, parts: ['v1-dashboards'], relies: READ_BACK },
);
