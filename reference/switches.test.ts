import { decodeJwt, decodeProtectedHeader } from 'jose';
import { describe, expect, it } from 'vitest';
import { type Envelope, postData, postJson, referenceForTests } from './test-client.ts';

// The behaviours the reference takes from the latitude catalogue, over HTTP: a reference with
// none of them and one with all four. Every place that reads the reference's own tokens (the
// API, the hub, the chart rows of chat) must take them in either form; settings.test.ts and the
// unit tests beside the code show each behaviour alone.

const SALES = [
  { region: 'north', amount: 10 },
  { region: 'north', amount: 5 },
  { region: 'south', amount: 100 },
];
const NOBODY = '00000000-0000-4000-8000-000000000000';

const ALL = ['tenant.identity-name', 'tokens.hs256', 'auth.both-forms', 'claims.layout'] as const;

describe.each([
  { switches: 'off', latitude: [] },
  { switches: 'on', latitude: ALL },
])('with the behaviours $switches', ({ switches, latitude }) => {
  const on = switches === 'on';
  const ref = referenceForTests({ hooks: true, seed: 4242, latitude });
  const hook = (path: string, body: unknown) => postData(`${ref.hooks}${path}`, body);
  const api = (path: string, body: unknown) => postData(`${ref.url}${path}`, body);

  /** An account with a project, a connection whose rows a user sees by region, a dashboard and a chart. */
  async function account() {
    const made = await hook('/accounts', {});
    const org = String(made['organizationId']);
    const key = String(made['orgBoundKey']);
    const projectId = String((await hook(`/accounts/${org}/projects`, {}))['projectId']);
    await hook(`/accounts/${org}/connections`, {
      name: 'sales',
      table: {
        name: 'sales',
        columns: [
          { name: 'region', type: 'text' },
          { name: 'amount', type: 'integer' },
        ],
        rows: SALES,
      },
      rowFilters: [{ column: 'region', property: 'region' }],
    });
    const ws = await hook(`/accounts/${org}/workspaces`, { name: 'Sales', dashboardName: 'Main' });
    const dashboardId = String(ws['dashboardId']);
    const chart = await hook(`/accounts/${org}/dashboards/${dashboardId}/charts`, {
      name: 'Total',
      chartConfig: {
        title: 'Total',
        type: 'bar',
        dimensions: [],
        measures: [{ name: 'total', field: 'total', label: 'total', format: '' }],
        sqlOverride: 'SELECT SUM(amount) AS total FROM sales',
      },
    });
    return { org, key, projectId, dashboardId, chartId: String(chart['chartId']) };
  }

  /** A project user in `region` on a role granting addChart, and a token for it. */
  async function user(a: Awaited<ReturnType<typeof account>>, region: string) {
    const role = await hook(`/accounts/${a.org}/projects/${a.projectId}/roles`, {
      name: `editor ${region}`,
      permissions: { addChart: true },
    });
    const { projectOrganizationId } = await api('/v1/api/projects/register-organization', {
      apiKey: a.key,
      projectId: a.projectId,
      name: 'Customer',
    });
    const { userId } = await api('/v1/api/projects/register-user', {
      apiKey: a.key,
      projectId: a.projectId,
      name: 'Viewer',
      properties: { region },
      projectOrganizationId,
      userRoleId: role['id'],
    });
    const { token } = await api('/v1/api/projects/user-token', { apiKey: a.key, userId });
    return {
      userId: String(userId),
      roleId: String(role['id']),
      projectOrganizationId: String(projectOrganizationId),
      token: String(token),
    };
  }

  it(`serves the JSON Web Key Set ${on ? 'not at all (HS256)' : 'of its ES256 key'}`, async () => {
    const a = await account();
    const { token } = await user(a, 'north');
    const res = await fetch(`${ref.url}/.well-known/jwks.json`);
    if (on) {
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ error: { code: 'ROUTE_NOT_FOUND' } });
      expect(decodeProtectedHeader(token)).toEqual({ alg: 'HS256', typ: 'JWT' });
    } else {
      expect(res.status).toBe(200);
      const { keys } = (await res.json()) as { keys: { kid: string }[] };
      expect(decodeProtectedHeader(token)).toMatchObject({ alg: 'ES256', kid: keys[0]?.kid });
    }
  });

  it(`lays a project-user token's claims out ${on ? 'nested' : 'flat'}`, async () => {
    const a = await account();
    const u = await user(a, 'north');
    const claims = decodeJwt(u.token);
    const facts = {
      permissions: expect.objectContaining({ addChart: true }) as unknown,
      role: u.roleId,
      organization: u.projectOrganizationId,
      properties: { region: 'north' },
    };
    if (on) {
      expect(claims).toMatchObject({ sub: u.userId, uid: u.userId, ctx: facts });
      for (const flat of ['perm', 'rol', 'pog', 'props']) expect(claims).not.toHaveProperty(flat);
    } else {
      expect(claims).toMatchObject({
        sub: u.userId,
        perm: facts.permissions,
        rol: facts.role,
        pog: facts.organization,
        props: facts.properties,
      });
      expect(claims).not.toHaveProperty('ctx');
    }
  });

  it('reads its own project-user tokens on the hub page, in the chart rows and on v2', async () => {
    const a = await account();
    const north = await user(a, 'north');
    const south = await user(a, 'south');
    // The hub: the role's addChart flag shows its tool; a token that does not verify is refused.
    const page = async (jwt: string) => {
      const res = await fetch(`${ref.running.hubUrl}/share/dashboard/${a.dashboardId}?jwt=${jwt}`);
      return { status: res.status, html: await res.text() };
    };
    const shown = await page(north.token);
    expect(shown.status).toBe(200);
    expect(shown.html).toMatch(/<button\b[^>]*>Add chart<\/button>/);
    expect((await page(`${north.token.slice(0, -4)}AAAA`)).status).toBe(401);
    // The chart rows a chat answer draws from: the token's properties choose the rows.
    const rows = async (token: string) =>
      (await hook(`/accounts/${a.org}/charts/${a.chartId}/data`, { token }))['rows'];
    expect(await rows(north.token)).toEqual([{ total: 15 }]);
    expect(await rows(south.token)).toEqual([{ total: 100 }]);
    // v2 (§4.16) after the migration, with the token as Bearer.
    await hook(`/accounts/${a.org}/migration/finalize`, {});
    const v2 = await fetch(`${ref.url}/v2/api/applications`, {
      headers: { authorization: `Bearer ${north.token}` },
    });
    expect(v2.status).toBe(200);
  });

  it('reads an API key in the authorization header bare and after Bearer, and a tenant JWT either way', async () => {
    const a = await account();
    const { token: tenant } = await api('/v1/api/tenant/register-tenant', {
      apiKey: a.key,
      tenantColumns: { customer_id: 'c-1' },
    });
    // A clone of a dashboard nobody has: the key is read and the id is not found; a credential
    // that is not read is a 401. The tenant (no editing permissions) is read and refused 403.
    const clone = async (authorization: string) => {
      const res = await fetch(`${ref.url}/v1/api/dashboard/clone`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization },
        body: JSON.stringify({ sourceDashboardId: NOBODY }),
      });
      return res.status;
    };
    expect(await clone(`Bearer ${a.key}`)).toBe(404);
    expect(await clone(a.key)).toBe(404);
    expect(await clone(`Bearer ${String(tenant)}`)).toBe(403);
    expect(await clone(String(tenant))).toBe(403);
    expect(await clone(`Basic ${a.key}`)).toBe(401);
  });

  it(`counts the display name in a tenant's identity ${on ? 'too' : 'not at all'}; a unique key alone either way`, async () => {
    const a = await account();
    const subject = async (fields: Record<string, unknown>) => {
      const res = await postJson<Envelope>(`${ref.url}/v1/api/tenant/register-tenant`, {
        apiKey: a.key,
        ...fields,
      });
      expect(res.status).toBe(200);
      return decodeJwt(String(res.body.data['token'])).sub;
    };
    const columns = { tenantColumns: { customer_id: 'c-2' } };
    const acme = await subject({ ...columns, name: 'Acme' });
    expect(await subject({ ...columns, name: 'Acme' })).toBe(acme);
    const renamed = await subject({ ...columns, name: 'Other' });
    if (on) expect(renamed).not.toBe(acme);
    else expect(renamed).toBe(acme);
    const keyed = await subject({ uniqueKey: 'k-1', name: 'Acme' });
    expect(await subject({ uniqueKey: 'k-1', name: 'Other' })).toBe(keyed);
  });
});
