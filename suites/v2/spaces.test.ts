import { expect } from 'vitest';
import { documentedStatus } from '../../fixtures/oracles/index.ts';
import { conformance, probe, type Conformance } from '../harness/conformance.ts';
import { roleUpdate } from '../harness/endpoints.ts';
import { expectError, successStatus } from '../harness/expect.ts';
import type { Reply } from '../harness/http.ts';
import {
  API_KEY,
  EDITOR,
  V2_KEY,
  V2_SHAPES,
  dashboardsOf,
  entryOf,
  lookUpPath,
  migratedWorld,
  needs,
  parts,
  projectUser,
  snapshot,
  v2Delete,
  v2Get,
  v2Post,
  writtenDashboard,
  type As,
  type Migrated,
} from '../harness/given/v2.ts';
import {
  APPLICATIONS,
  dashboardPath,
  dashboardsPath,
  chartPath,
  clonePath,
} from '../harness/paths.ts';

// §5 rule 7 and §2.8: with a project-user token v2 calls act in that user's space, with an
// API key on the templates; §7: a user's edit of a template is refused 409 and changes nothing
// (clone first), a user with no project organization gets 403. Read back through the v2 lists.
const READ_ONLY = 'SHARED_DASHBOARD_READ_ONLY';
const NO_ORGANIZATION = 'PROJECT_USER_WITHOUT_ORGANIZATION';

/** The three edits §4.16 makes of one dashboard, as `as`. */
function edits(m: Migrated, as: As, dashboardId: string, chart: string) {
  const at = dashboardPath(m.applicationId, dashboardId);
  return [
    {
      name: 'add charts',
      send: (t: Parameters<typeof v2Post>[0]) =>
        v2Post(t, m.w, `${at}/charts`, as, { charts: m.otherTemplate.chartIds ?? [] }),
    },
    {
      name: 'remove a chart',
      send: (t: Parameters<typeof v2Post>[0]) => v2Delete(t, m.w, `${at}/charts/${chart}`, as),
    },
    {
      name: 'append charts',
      send: (t: Parameters<typeof v2Post>[0]) =>
        v2Post(t, m.w, `${at}/append-charts`, as, { sourceDashboardId: m.otherTemplate.id }),
    },
  ] as const satisfies readonly { name: string; send: (t: never) => Promise<Reply> }[];
}

conformance(
  ['auth.v2.user-token-own-space', 'v2.dashboard.kind-dashboard'],
  "a dashboard a project user creates is a 'dashboard' in that user's space, seen by nobody else",
  async (t) => {
    const m = await migratedWorld(t);
    const alice = await projectUser(t, m.w);
    const bob = await projectUser(t, m.w);
    const as = { token: alice.token };
    const before = await dashboardsOf(t, m.w, m.applicationId, as);
    const made = await writtenDashboard(
      t,
      m.w,
      await v2Post(t, m.w, dashboardsPath(m.applicationId), as, { name: 'Mine' }),
      { call: 'v2.create', applicationId: m.applicationId, as, before },
      'create as a project user',
    );
    const mine = entryOf(await dashboardsOf(t, m.w, m.applicationId, as), made.id, 'own list');
    expect(mine.kind).toBe('dashboard');
    expect(mine.ownerProjectUserId).toBe(alice.userId);
    const bobs = await dashboardsOf(t, m.w, m.applicationId, { token: bob.token });
    expect(
      bobs.map((d) => d.id),
      'another user does not see it',
    ).not.toContain(made.id);
    const shared = await dashboardsOf(t, m.w, m.applicationId, API_KEY);
    expect(
      shared.map((d) => d.id),
      'an API key lists templates only',
    ).not.toContain(made.id);
  },
  { needs, parts, relies: V2_KEY },
);

conformance(
  ['errors.shared-dashboard-read-only', 'permissions.editing.edits-go-to-own-copy'],
  'a project user editing a template gets 409 SHARED_DASHBOARD_READ_ONLY and nothing changes',
  async (t) => {
    const m = await migratedWorld(t);
    const user = await projectUser(t, m.w);
    const as = { token: user.token };
    const read = async () =>
      `${snapshot(await dashboardsOf(t, m.w, m.applicationId))} ${snapshot(await dashboardsOf(t, m.w, m.applicationId, as))}`;
    const before = await read();
    for (const edit of edits(m, as, m.template.id, m.template.chartIds?.[0] ?? '')) {
      expectError(await edit.send(t), documentedStatus(READ_ONLY), edit.name, READ_ONLY);
    }
    expect(await read(), 'neither the template nor the user list changed').toBe(before);
  },
  { needs, parts, relies: V2_KEY },
);

conformance(
  ['auth.v2.user-token-own-space', 'errors.shared-dashboard-read-only'],
  "a project user clones a template and edits the clone: the clone is the user's, the template unchanged",
  async (t) => {
    const m = await migratedWorld(t);
    const user = await projectUser(t, m.w);
    const as = { token: user.token };
    const before = await dashboardsOf(t, m.w, m.applicationId, as);
    const clone = await writtenDashboard(
      t,
      m.w,
      await v2Post(t, m.w, clonePath(m.applicationId, m.template.id), as, {
        name: 'My copy',
      }),
      { call: 'v2.clone', applicationId: m.applicationId, as, before },
      'clone as a project user',
    );
    for (const edit of edits(m, as, clone.id, clone.chartIds?.[0] ?? '')) {
      const res = await edit.send(t);
      expect(
        successStatus(res.status),
        `${edit.name} on the user's clone: ${res.status} ${res.text.slice(0, 200)}`,
      ).toBe(true);
    }
    const mine = entryOf(await dashboardsOf(t, m.w, m.applicationId, as), clone.id, 'own list');
    expect(mine.kind).toBe('dashboard');
    expect(mine.ownerProjectUserId).toBe(user.userId);
    const template = entryOf(
      await dashboardsOf(t, m.w, m.applicationId),
      m.template.id,
      'template',
    );
    expect(template.chartIds, 'the template is unchanged').toEqual(m.template.chartIds);
  },
  { needs, parts, relies: V2_KEY },
);

/**
 * Every v2 call of §4.16 a project user with no project organization makes. `decided` marks the
 * ones the document leaves open (decision v2.no-organization.calls: reads, the look-up, and edits
 * of a template, where the 409 of §7 could come first); the others act in the user's own space,
 * which such a user does not have (§2.4, §7), so they must answer 403.
 */
function noOrganizationCalls(t: Conformance, m: Migrated, as: As) {
  const chart = m.template.chartIds?.[0] ?? '';
  const lookUp = lookUpPath(t, m.template.id);
  const calls: { name: string; decided: boolean; send: () => Promise<Reply> }[] = [
    {
      name: 'create',
      decided: false,
      send: () => v2Post(t, m.w, dashboardsPath(m.applicationId), as, { name: 'Nowhere' }),
    },
    {
      name: 'clone a template',
      decided: false,
      send: () => v2Post(t, m.w, clonePath(m.applicationId, m.template.id), as, {}),
    },
    {
      name: 'list the dashboards of an application',
      decided: true,
      send: () => v2Get(t, m.w, dashboardsPath(m.applicationId), as),
    },
    ...edits(m, as, m.template.id, chart).map((edit) => ({
      name: `${edit.name} on a template`,
      decided: true,
      send: () => edit.send(t),
    })),
  ];
  if (lookUp !== undefined) {
    calls.push({
      name: 'look up a dashboard',
      decided: true,
      send: () => v2Get(t, m.w, lookUp, as),
    });
  }
  return calls;
}

/** Each call answers 403 PROJECT_USER_WITHOUT_ORGANIZATION and no dashboard changes. */
async function refusedWithoutOrganization(t: Conformance, decided: boolean): Promise<void> {
  const m = await migratedWorld(t);
  const user = await projectUser(t, m.w, undefined, false);
  const as = { token: user.token };
  const before = snapshot(await dashboardsOf(t, m.w, m.applicationId));
  for (const call of noOrganizationCalls(t, m, as).filter((c) => c.decided === decided)) {
    expectError(await call.send(), documentedStatus(NO_ORGANIZATION), call.name, NO_ORGANIZATION);
  }
  expect(snapshot(await dashboardsOf(t, m.w, m.applicationId)), 'nothing changed').toBe(before);
}

conformance(
  ['errors.user-without-organization', 'resources.user.no-organization-no-v2-dashboards'],
  'a project user with no project organization gets 403 PROJECT_USER_WITHOUT_ORGANIZATION on v2 writes, and nothing is made',
  (t) => refusedWithoutOrganization(t, false),
  { needs, parts, relies: V2_KEY },
);

conformance(
  ['errors.user-without-organization', 'resources.user.no-organization-no-v2-dashboards'],
  'a project user with no project organization gets 403 PROJECT_USER_WITHOUT_ORGANIZATION on every call under an application and on the look-up, and nothing changes',
  (t) => refusedWithoutOrganization(t, true),
  { needs, parts, relies: [...V2_KEY, 'v2.no-organization.calls'] },
);

probe(
  ['v2.no-organization.calls'],
  'what a project user with no project organization gets on the application list, every call under an application and the look-up',
  async (t) => {
    const m = await migratedWorld(t);
    const user = await projectUser(t, m.w, undefined, false);
    const as = { token: user.token };
    const seen: string[] = [];
    let decided = true;
    const listed = await v2Get(t, m.w, APPLICATIONS, as);
    seen.push(`application list ${listed.status}`);
    if (!successStatus(listed.status)) decided = false;
    for (const call of noOrganizationCalls(t, m, as).filter((c) => c.decided)) {
      const res = await call.send();
      const code = (res.body as { error?: { code?: unknown } } | undefined)?.error?.code;
      seen.push(`${call.name} ${res.status} ${typeof code === 'string' ? code : ''}`.trim());
      if (code !== NO_ORGANIZATION) decided = false;
    }
    t.observe(seen.join('; '), decided);
  },
  { needs, parts, relies: V2_KEY },
);

conformance(
  ['states.role.update-immediate-api-checks', 'permissions.read-only.refuses-dashboard-writes'],
  'a role update to readOnly (editing flags kept) refuses the very next v2 write made with a token issued before it',
  async (t) => {
    const m = await migratedWorld(t);
    const user = await projectUser(t, m.w);
    const as = { token: user.token };
    const first = await v2Post(t, m.w, dashboardsPath(m.applicationId), as, { name: 'Before' });
    expect(
      successStatus(first.status),
      `create before the update: ${first.status} ${first.text.slice(0, 200)}`,
    ).toBe(true);
    // §2.2: readOnly overrides every editing flag; the flags stay on so only readOnly refuses.
    const update = roleUpdate(t, m.w, user.roleId ?? '');
    const updated = await t.http.put(update.path, {
      ...m.w.creds(),
      ...update.fields,
      permissions: { ...EDITOR, readOnly: true },
    });
    expect(updated.status, `role update: ${updated.text.slice(0, 200)}`).toBe(200);
    const before = snapshot(await dashboardsOf(t, m.w, m.applicationId, as));
    const second = await v2Post(t, m.w, dashboardsPath(m.applicationId), as, { name: 'After' });
    expect(
      second.status,
      `create after readOnly: ${second.text.slice(0, 200)}`,
    ).toBeGreaterThanOrEqual(400);
    expect(second.status).toBeLessThan(500);
    expect(snapshot(await dashboardsOf(t, m.w, m.applicationId, as)), 'nothing was made').toBe(
      before,
    );
  },
  { needs, parts, relies: V2_SHAPES },
);

conformance(
  ['auth.v2.organization-id-placement', 'auth.v2.api-key-shared'],
  'a user-scoped key works on v2 with organizationId in the query on GET and DELETE and in the body on POST',
  async (t) => {
    const m = await migratedWorld(t);
    const as: As = { key: 'user-scoped' };
    const listed = await dashboardsOf(t, m.w, m.applicationId, as);
    entryOf(listed, m.template.id, 'GET with organizationId in the query');
    const made = await writtenDashboard(
      t,
      m.w,
      await v2Post(t, m.w, dashboardsPath(m.applicationId), as, { name: 'Keyed' }),
      { call: 'v2.create', applicationId: m.applicationId, as, before: listed },
      'POST with organizationId in the body',
    );
    const chart = m.template.chartIds?.[0] ?? '';
    const removed = await v2Delete(t, m.w, chartPath(m.applicationId, m.template.id, chart), as);
    expect(
      successStatus(removed.status),
      `DELETE with organizationId in the query: ${removed.status} ${removed.text.slice(0, 200)}`,
    ).toBe(true);
    const after = await dashboardsOf(t, m.w, m.applicationId, API_KEY);
    entryOf(after, made.id, 'the created template');
    expect(entryOf(after, m.template.id, 'template').chartIds).not.toContain(chart);
  },
  { needs, parts, relies: V2_KEY },
);
