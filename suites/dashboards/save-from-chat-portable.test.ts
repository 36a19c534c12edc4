import { expect } from 'vitest';
import { SaveFromChatResponse } from '../../spec/schemas/chart.ts';
import { Token } from '../../spec/schemas/token.ts';
import { expectedPermissions } from '../../fixtures/oracles/index.ts';
import { conformance, type Conformance } from '../harness/conformance.ts';
import { registerTenant } from '../harness/endpoints.ts';
import { describeAnswer, expectSuccess } from '../harness/expect.ts';
import {
  createRole,
  registerOrganization,
  registerUser,
  userToken,
} from '../harness/given/accounts.ts';
import {
  CONTENT,
  TENANT_FIELDS,
  dashboardsWorld,
  tenantToken,
  v1Post,
  type DashboardsWorld,
} from '../harness/given/dashboards.ts';
import type { Reply } from '../harness/http.ts';
import { instant } from '../harness/instant.ts';
import { SAVE_FROM_CHAT } from '../harness/paths.ts';

// §5 rule 4: save-from-chat takes an API key, a tenant JWT or a project-user JWT, judged here
// without any decision of ours. Whether it also checks the §2.2 flags of the tenant or the user
// is left open (charts.save-from-chat.permissions), so the tenant and the user hold every flag
// but readOnly (the one flag that takes editing away, §2.2): whichever flag a target checks, if
// any, they have it. Which fields it requires is left open too
// (charts.save-from-chat.required-fields), so every request sends every field §4.14 lists, the
// connection and the agent ones the hooks made: a refusal can only be of the credential.
const EVERY_GRANT = Object.fromEntries(
  expectedPermissions.flags.filter((flag) => flag !== 'readOnly').map((flag) => [flag, true]),
);
const Saved = SaveFromChatResponse.shape.data;
const needs = [...CONTENT, 'connections', 'agents'] as const;

/** A small chartConfig in the shape of §2.6. */
function chartConfig(title: string): Record<string, unknown> {
  return {
    title,
    type: 'bar',
    dimensions: [{ name: 'month', field: 'created_at', label: 'Month', type: 'time' }],
    measures: [{ name: 'total', field: 'amount', label: 'Total', aggregation: 'sum' }],
    sqlOverride:
      "SELECT date_trunc('month', created_at) AS month, sum(amount) AS total FROM orders GROUP BY 1 ORDER BY 1",
  };
}

/** save-from-chat with every §4.14 field, the credential in the authorization header. */
async function saver(t: Conformance, w: DashboardsWorld) {
  const { connectionId } = await t.hooks.createConnection(w.account.organizationId);
  const { agentId } = await t.hooks.createAgent(w.account.organizationId, w.projectId, {
    connectionId,
  });
  return (secret: string, name: string): Promise<Reply> => {
    const config = chartConfig(name);
    return v1Post(t, SAVE_FROM_CHAT, secret, {
      chartConfig: config,
      connectionId,
      sql: config['sqlOverride'],
      agentId,
      name,
      thumbnail: `data:image/png;base64,${Buffer.from(name).toString('base64')}`,
    });
  };
}

function expectSaved(res: Reply, what: string): void {
  expect(res.status, `save-from-chat with ${what}: ${describeAnswer(res)}`).toBe(200);
  expect(
    Saved.safeParse((res.body as { data?: unknown }).data).success,
    `save-from-chat with ${what}: data is {chartId, name}, got ${res.text.slice(0, 300)}`,
  ).toBe(true);
}

conformance(
  ['auth.save-from-chat.carriers', 'auth.header.dashboard-writes'],
  'save-from-chat with every field accepts an API key, a tenant JWT and a project-user JWT of every editing flag',
  async (t) => {
    const w = await dashboardsWorld(t, 0);
    const save = await saver(t, w);
    const role = await createRole(t, w, EVERY_GRANT);
    const org = await registerOrganization(t, w);
    const { userId } = await registerUser(t, w, {
      projectOrganizationId: org.projectOrganizationId,
      userRoleId: role.id,
    });
    const projectUserToken = expectSuccess(
      await userToken(t, w, userId),
      Token,
      'asking a user token',
    ).token;
    const credentials: [string, string][] = [
      ['an API key in the authorization header', w.creds().apiKey],
      ['a tenant JWT', await tenantToken(t, w, EVERY_GRANT)],
      ['a project-user JWT', projectUserToken],
    ];
    for (const [what, secret] of credentials) expectSaved(await save(secret, `By ${what}`), what);
  },
  {
    needs: [...needs, 'roles'],
    parts: ['v1-dashboards', 'identity', 'tenant-flow'],
    relies: TENANT_FIELDS,
  },
);

// §4.9: the body conveys every concept, the token expiration among them. register-tenant answers
// no expiresAt and §5 rule 8 leaves the JWT's claims open, so the lifetime is read from the
// token's effect: save-from-chat, which §5 rule 4 requires to take a tenant JWT, accepts it a
// minute before the lifetime asked ends (past the one-hour default) and not a minute after.
const TWO_HOURS = 2 * 3600 * 1000;
const MINUTE = 60 * 1000;

conformance(
  ['tenants.register.body-concepts'],
  'a register-tenant body carrying every concept of §4.9 is accepted, and its token lives for the expiration sent',
  async (t) => {
    const w = await dashboardsWorld(t, 0);
    const save = await saver(t, w);
    const org = w.account.organizationId;
    const { now } = await t.hooks.clock(org);
    const at = (Math.floor(instant(now) / 1000) + 2) * 1000;
    await t.hooks.freeze(org, new Date(at).toISOString());
    // The connection override's form is wholly open: it goes along in the target's own form
    // where the profile gives one (shapes.registerTenant.examples), else it stays out.
    const override = t.profile.shapes.registerTenant?.examples?.connectionOverride;
    const columns = { customer_id: t.faker.string.alphanumeric(10) };
    const req = registerTenant(t, {
      ...(t.profile.shapes.registerTenant?.name === undefined
        ? {}
        : { name: `Tenant ${columns.customer_id}` }),
      columns,
      schema: 'analytics',
      permissions: EVERY_GRANT,
      metadata: { plan: 'pro' },
      ...(override === undefined ? {} : { connectionOverride: override }),
      expiration: '2h',
    });
    const res = await t.http.post(req.path, { ...w.creds(), ...req.fields });
    expect(res.status, `registering a tenant with every concept: ${describeAnswer(res)}`).toBe(200);
    const token = (res.body as { data?: { token?: unknown } }).data?.token;
    if (typeof token !== 'string') return expect.fail(`no token in ${res.text.slice(0, 300)}`);
    const moved = await t.hooks.advance(org, (TWO_HOURS - MINUTE) / 1000);
    expect(instant(moved.now), 'the clock hook advances as asked').toBe(at + TWO_HOURS - MINUTE);
    expectSaved(await save(token, 'Before the end'), 'the tenant JWT a minute before 2h');
    await t.hooks.advance(org, (2 * MINUTE) / 1000);
    const after = await save(token, 'After the end');
    expect(
      after.status === 401 || after.status === 403,
      `a minute after 2h the tenant JWT is refused, got ${describeAnswer(after)}`,
    ).toBe(true);
  },
  { needs: [...needs, 'clock'], parts: ['v1-dashboards', 'tenant-flow'], relies: TENANT_FIELDS },
);
