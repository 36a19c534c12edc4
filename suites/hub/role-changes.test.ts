import { expect } from 'vitest';
import { z } from 'zod';
import { openHub } from '../harness/browser.ts';
import { conformance, type Conformance } from '../harness/conformance.ts';
import { expectSuccess, successStatus } from '../harness/expect.ts';
import { createRole, registerOrganization, registerUser } from '../harness/given/accounts.ts';
import {
  dashboardPath,
  dashboardShown,
  expectCount,
  sharedHubWorld,
  needs,
  parts,
  tokenOf,
  HUB_TIMEOUT,
  type HubWorld,
} from './kit.ts';
import { rolePath, rolesPath, userPath } from '../harness/paths.ts';

// §3's moves of a user's role (a user update with a role id or null, a role deleted), seen where
// §2.2 makes a role visible without reading a token's claims (which §5 rule 8 leaves open): on
// the dashboard page opened with the user's next token, addChart offers adding charts, and a
// user with no role gets no editing tools.

/** A role that grants editing through addChart alone: its page offers adding charts. */
const ADDS = { addChart: true } as const;

interface Person {
  readonly userId: string;
  /** The §4.6 update body that keeps what was registered, but the role as given. */
  readonly update: (userRoleId: string | null) => Record<string, unknown>;
}

/** A project user with a project organization and this role (none for undefined). */
async function person(t: Conformance, w: HubWorld, userRoleId?: string): Promise<Person> {
  const org = await registerOrganization(t, w);
  const { userId, body } = await registerUser(t, w, {
    ...(userRoleId === undefined ? {} : { userRoleId }),
    projectOrganizationId: org.projectOrganizationId,
    properties: { region: 'north' },
  });
  // Every field of the user is sent again, so that no reading of an absent field is leaned on.
  return {
    userId,
    update: (role) => ({
      ...w.creds(),
      name: body.name,
      properties: body.properties,
      projectOrganizationId: org.projectOrganizationId,
      userRoleId: role,
    }),
  };
}

/** Whether the page a fresh token of the user opens offers adding charts (1) or not (0). */
async function expectAddChart(
  t: Conformance,
  w: HubWorld,
  userId: string,
  count: 0 | 1,
  what: string,
): Promise<void> {
  const view = await openHub(
    t,
    dashboardPath(w.board.dashboardId, { jwt: await tokenOf(t, w, userId) }),
  );
  await dashboardShown(view, w);
  await expectCount(view.thing('addChart'), count, what);
  if (count === 0) await expectCount(view.thing('editingTools'), 0, `${what}: no editing tools`);
  await view.close();
}

/** A user on a fresh ADDS role, seen offered addChart before the role is moved. */
async function adding(t: Conformance, w: HubWorld) {
  const role = await createRole(t, w, ADDS);
  const p = await person(t, w, role.id);
  await expectAddChart(
    t,
    w,
    p.userId,
    1,
    'the page of a user on a role {"addChart":true} offers addChart',
  );
  return { role, p };
}

async function updated(t: Conformance, w: HubWorld, p: Person, role: string | null) {
  const res = await t.http.put(userPath(w, p.userId), p.update(role));
  expect(
    successStatus(res.status),
    `the user update: ${res.status} ${res.text.slice(0, 200)}`,
  ).toBe(true);
}

conformance(
  ['states.user.role-assigned', 'states.user.role-assigned-next-token', 'users.update.role-set'],
  "a role id from the role list, given by a user update, reaches the page from the user's next token",
  async (t) => {
    const w = await sharedHubWorld(t);
    const role = await createRole(t, w, ADDS);
    const listed = expectSuccess(
      await t.http.get(rolesPath(w), { query: w.creds() }),
      // Only the ids are read: §4.2 fixes the list's envelope, and a role's id is all this needs.
      z.object({ userRoles: z.array(z.looseObject({ id: z.string() })) }),
      'the role list',
    );
    const fromList = listed.userRoles.find((r) => r.id === role.id);
    if (fromList === undefined) expect.fail(`the role list does not hold the new role ${role.id}`);
    const p = await person(t, w);
    await expectAddChart(t, w, p.userId, 0, 'the page of a user with no role offers no addChart');
    await updated(t, w, p, fromList.id);
    await expectAddChart(
      t,
      w,
      p.userId,
      1,
      'the page opened with the next token of a user given a role {"addChart":true} offers addChart',
    );
  },
  { timeout: HUB_TIMEOUT, parts, needs },
);

conformance(
  [
    'states.user.role-cleared',
    'states.user.role-cleared-next-token',
    'users.update.role-null-removes',
    'resources.user.role-nullable',
  ],
  "userRoleId null in a user update leaves the user's next token view-only",
  async (t) => {
    const w = await sharedHubWorld(t);
    const { p } = await adding(t, w);
    await updated(t, w, p, null);
    await expectAddChart(
      t,
      w,
      p.userId,
      0,
      'the page opened with the next token of a user whose role was set to null offers no addChart',
    );
  },
  { timeout: HUB_TIMEOUT, parts, needs },
);

conformance(
  ['states.user.role-deleted', 'roles.delete.users-lose-role'],
  "deleting a role leaves its user's next token view-only",
  async (t) => {
    const w = await sharedHubWorld(t);
    const { role, p } = await adding(t, w);
    const res = await t.http.delete(rolePath(w, role.id), { query: w.creds() });
    expect(
      successStatus(res.status),
      `deleting the role: ${res.status} ${res.text.slice(0, 200)}`,
    ).toBe(true);
    await expectAddChart(
      t,
      w,
      p.userId,
      0,
      'the page opened with the next token of a user whose role was deleted offers no addChart',
    );
  },
  { timeout: HUB_TIMEOUT, parts, needs },
);
