import { parseVary } from '../../latitude/choice.ts';
import { afterAll, describe, expect, it } from 'vitest';
import { start, type RunningReference } from '../../reference/server.ts';
import { TargetProfile } from '../../spec/profile.ts';
import type { FreedomId } from '../../spec/latitude.ts';
import { givenFor } from '../../suites/harness/given/accounts.ts';
import { resolveTarget } from '../target.ts';
import { tenantCopies, v1Writes } from './behaviours.ts';
import { discoverSpec } from './index.ts';
import { Watch } from './watch.ts';

// What the v2 part and the behaviours part read off a target, checked against targets whose
// choices are known: the reference as it is, and behind the latitude proxy taking the other
// choices the document allows. Expected values are written from those choices' descriptions
// (spec/latitude.ts), never read from a profile file.

/** The follows the behaviours part proposes on the reference, each seen there. */
const SEEN_ON_REFERENCE = [
  'v2.credentials.api-key-carrier',
  'v2.refusals.not-found',
  'v2.shapes.beyond-named-fields',
  'v2.applications.list.before-finalize',
  'v2.no-organization.calls',
  'migration.chart-ids-kept',
  'charts.save-from-chat.required-fields',
  'charts.save-from-chat.permissions',
  'dashboards.connection-id.guest',
  'dashboards.append-charts-from.copies',
];

/** Latitude behaviour entries each breaking one decision above, and the follows it breaks. */
const BROKEN: Readonly<Record<string, string>> = {
  'dashboards.charts-renumbered': 'migration.chart-ids-kept',
  'v2.unmigrated-refused': 'v2.applications.list.before-finalize',
  'v2.no-organization-own-space': 'v2.no-organization.calls',
  'charts.save-checked': 'charts.save-from-chat.permissions',
  'charts.save-name-required': 'charts.save-from-chat.required-fields',
  'dashboards.connections-unchecked': 'dashboards.connection-id.guest',
  'dashboards.append-same-charts': 'dashboards.append-charts-from.copies',
  'dashboards.v1-project-users': 'dashboards.v1-writes.credentials',
};

describe('eac profile discover: v2 and the behaviours', () => {
  const running: RunningReference[] = [];
  afterAll(async () => {
    await Promise.all(running.map((r) => r.close()));
  });

  it('proposes on the reference each follows it saw, with the look-up path and the key carrier', async () => {
    const reference = await start({ hooks: true, seed: 13 });
    running.push(reference);
    const found = await discoverSpec(
      {
        target: reference.url,
        ...(reference.hooksUrl === undefined ? {} : { hooks: reference.hooksUrl }),
        checkDecisions: false,
      },
      7,
    );
    expect(() => TargetProfile.parse(found.profile)).not.toThrow();
    expect(found.profile.follows).toEqual(expect.arrayContaining(SEEN_ON_REFERENCE));
    expect(found.profile.shapes.v2ApiKey).toBeUndefined();
    expect(found.profile.shapes.endpoints?.lookUpDashboard).toMatch(/^GET \/v2\//);
    const review = found.review.join('\n');
    for (const id of SEEN_ON_REFERENCE) expect(review).toContain(`follows ${id}`);
    // What the tenant part decides rests on names other parts find: proposed or said, never both.
    const tenantSaid = found.undecided.join('\n').includes('dashboards.copy.chart-ids');
    expect(tenantSaid).toBe(!(found.profile.follows ?? []).includes('dashboards.copy.chart-ids'));
  }, 90_000);

  it('finds the key in the x-api-key header when v2 reads no apiKey member, and states it', async () => {
    const found = await discoverSpec(
      { checkDecisions: false, latitude: parseVary('v2.api-key-header,endpoints.templated') },
      5,
    );
    expect(found.profile.shapes.v2ApiKey).toEqual({ header: 'x-api-key' });
    expect(found.profile.follows ?? []).not.toContain('v2.credentials.api-key-carrier');
    expect(found.profile.shapes.v2Application).toBeDefined();
    expect(found.profile.shapes.v2Dashboard).toBeDefined();
    expect(found.profile.shapes.endpoints?.lookUpDashboard).toBeDefined();
    expect(found.review.join('\n')).toMatch(/shapes\.v2ApiKey/);
  }, 90_000);

  it('proposes none of the decisions the latitude behaviours break, and still finds the layout', async () => {
    const found = await discoverSpec(
      { checkDecisions: false, latitude: parseVary(Object.keys(BROKEN).join(',')) },
      5,
    );
    const observed = found.observed.join('\n');
    for (const id of Object.values(BROKEN)) {
      expect(found.profile.follows ?? []).not.toContain(id);
      // Each was watched and seen otherwise, not skipped.
      expect(observed).toContain(`behaviour: not ${id} (`);
    }
    // Charts renumbered at migration: the layout is still placed, the ids not kept.
    expect(found.profile.shapes.v2Dashboard?.chartIds).toBe('/chartIds');
    // What these entries leave alone is still proposed.
    expect(found.profile.follows).toEqual(
      expect.arrayContaining(['v2.credentials.api-key-carrier', 'v2.refusals.not-found']),
    );
  }, 90_000);
});

describe('eac profile discover: the tenant copies', () => {
  /**
   * The tenant part alone, on a watch holding what the other parts find on the reference (its
   * register-tenant names and v1 list path, written here from its decisions).
   */
  const watchTenants = async (latitude: readonly FreedomId[], proposed: readonly string[] = []) => {
    const resolved = await resolveTarget({ checkDecisions: false, latitude: [...latitude] }, 5);
    try {
      const found = resolved.target;
      const w = new Watch(
        givenFor({
          ...found,
          hubUrl: '',
          checkDecisions: false,
          profile: { serves: [], shapes: {} },
        }),
      );
      for (const part of ['tenant-flow', 'v1-dashboards'] as const) w.serves.add(part);
      w.shapes['registerTenant'] = {
        name: 'name',
        columns: 'tenantColumns',
        permissions: 'permissions',
      };
      w.shapes['endpoints'] = {
        v1ListWorkspaceDashboards: 'GET /v1/api/dashboard/list-workspace-dashboards',
      };
      for (const id of proposed) {
        w.follows.push(id);
        w.review.push(`follows ${id}: proposed before`);
      }
      await tenantCopies(w);
      return w;
    } finally {
      await resolved.close();
    }
  };
  const TENANT_FOLLOWS = [
    'dashboards.copy.chart-ids',
    'dashboards.v1-list.api-key-view',
    'dashboards.copy.clone-beside',
    'dashboards.tenant-permissions.read-at-write',
  ];

  it('proposes what a tenant was seen doing on the reference', async () => {
    const w = await watchTenants([]);
    expect(w.follows).toEqual(TENANT_FOLLOWS);
  }, 60_000);

  it('proposes none of them when latitude behaviours take the other choices', async () => {
    const w = await watchTenants([
      'dashboards.charts-renumbered',
      'dashboards.key-sees-all',
      'dashboards.clone-in-place',
      'tenants.permissions-at-issue',
    ]);
    expect(w.follows).toEqual([]);
    for (const id of TENANT_FOLLOWS) expect(w.observed.join('\n')).toContain(`not ${id} (`);
  }, 60_000);

  it("takes back save-from-chat's unchecked flags when a view-only tenant's save is refused", async () => {
    const kept = await watchTenants([], ['charts.save-from-chat.permissions']);
    expect(kept.follows).toContain('charts.save-from-chat.permissions');
    const w = await watchTenants(['charts.save-checked'], ['charts.save-from-chat.permissions']);
    expect(w.follows).not.toContain('charts.save-from-chat.permissions');
    expect(w.review.join('\n')).not.toMatch(/save-from-chat\.permissions/);
  }, 60_000);

  it('says what it could not decide without the register-tenant names', async () => {
    const resolved = await resolveTarget({ checkDecisions: false, latitude: [] }, 5);
    try {
      const w = new Watch(
        givenFor({
          ...resolved.target,
          hubUrl: '',
          checkDecisions: false,
          profile: { serves: [], shapes: {} },
        }),
      );
      await tenantCopies(w);
      expect(w.follows).toEqual([]);
      expect(w.undecided.join('\n')).toMatch(/dashboards\.copy\.chart-ids/);
    } finally {
      await resolved.close();
    }
  }, 60_000);
});

describe('eac profile discover: the v1 writes on the paths other parts found', () => {
  /** The v1 part alone, on a watch holding the reference's v1 paths (its decisions). */
  const watchV1 = async (latitude: readonly FreedomId[]) => {
    const resolved = await resolveTarget({ checkDecisions: false, latitude: [...latitude] }, 5);
    try {
      const w = new Watch(
        givenFor({
          ...resolved.target,
          hubUrl: '',
          checkDecisions: false,
          profile: { serves: [], shapes: {} },
        }),
      );
      w.serves.add('v1-dashboards');
      w.shapes['authorizationHeader'] = 'both';
      w.shapes['endpoints'] = {
        v1CreateDashboard: 'POST /v1/api/dashboard/create',
        v1AddCharts: 'POST /v1/api/dashboard/add-charts',
      };
      await v1Writes(w);
      return w;
    } finally {
      await resolved.close();
    }
  };
  const V1_FOLLOWS = ['dashboards.v1-writes.credentials', 'dashboards.v1-add-charts.repeat'];

  it('proposes the project-user refusal and the repeated add on the reference', async () => {
    const w = await watchV1([]);
    expect(w.follows).toEqual(expect.arrayContaining(V1_FOLLOWS));
  }, 60_000);

  it('proposes neither when latitude behaviours take the other choices', async () => {
    const w = await watchV1(['dashboards.layout-strict', 'dashboards.v1-project-users']);
    for (const id of V1_FOLLOWS) {
      expect(w.follows).not.toContain(id);
      expect(w.observed.join('\n')).toContain(`not ${id} (`);
    }
  }, 60_000);
});
