import { describe, expect, it } from 'vitest';
import { Layouts, bareKey, witnessed } from './behaviours.ts';
import type { Answer } from './transform.ts';

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const jwt = (header: object, payload: object) => `${b64(header)}.${b64(payload)}.c2ln`;

function answer(method: string, url: string, status: number, body: unknown): Answer {
  return {
    request: { method, url, headers: {}, body: Buffer.alloc(0), origin: 'api' },
    status,
    headers: { 'content-type': 'application/json' },
    body: Buffer.from(JSON.stringify(body)),
  };
}

describe('behaviour witnesses', () => {
  const all = ['tokens.hs256', 'claims.layout', 'tenant.identity-name'] as const;

  it('see an HS256 token, and a key set that is not there', () => {
    const hs = jwt({ alg: 'HS256' }, { sub: 'u' });
    const es = jwt({ alg: 'ES256', kid: 'k' }, { sub: 'u' });
    const token = (t: string) =>
      answer('POST', '/v1/api/projects/user-token', 200, { data: { token: t } });
    expect(witnessed(token(hs), all)).toEqual(['tokens.hs256']);
    expect(witnessed(token(es), all)).toEqual([]);
    expect(witnessed(answer('GET', '/.well-known/jwks.json', 404, {}), all)).toEqual([
      'tokens.hs256',
    ]);
    expect(witnessed(token(hs), ['claims.layout'])).toEqual([]);
  });

  it('see an exp a second after the expiresAt beside it', () => {
    const end = Date.parse('2026-01-01T01:00:00Z') / 1000;
    const issued = (exp: number) =>
      answer('POST', '/v1/api/projects/user-token', 200, {
        status: 'success',
        data: {
          token: jwt({ alg: 'ES256' }, { sub: 'u', exp }),
          expiresAt: '2026-01-01T01:00:00.000Z',
        },
      });
    const chosen = ['tokens.through-expires-at'] as const;
    expect(witnessed(issued(end + 1), chosen)).toEqual(['tokens.through-expires-at']);
    expect(witnessed(issued(end), chosen)).toEqual([]);
  });

  it('see claims laid out under ctx', () => {
    const nested = jwt({ alg: 'ES256' }, { sub: 'u', uid: 'u', ctx: { permissions: {} } });
    const flat = jwt({ alg: 'ES256' }, { sub: 'u', perm: {} });
    const token = (t: string) =>
      answer('POST', '/v1/api/projects/embed-token', 200, { data: { token: t } });
    expect(witnessed(token(nested), all)).toEqual(['claims.layout']);
    expect(witnessed(token(flat), all)).toEqual([]);
  });

  it('see the permissions written as granted names, flat or under ctx', () => {
    const forms = ['claims.permissions-array', 'claims.permissions-string'] as const;
    const token = (payload: object) =>
      answer('POST', '/v1/api/projects/user-token', 200, {
        data: { token: jwt({ alg: 'ES256' }, { kind: 'project-user', ...payload }) },
      });
    expect(witnessed(token({ 'https://eac.example/permissions': ['addChart'] }), forms)).toEqual([
      'claims.permissions-array',
    ]);
    expect(witnessed(token({ scope: 'addChart' }), forms)).toEqual(['claims.permissions-string']);
    expect(witnessed(token({ ctx: { permissions: ['addChart'] } }), forms)).toEqual([
      'claims.permissions-array',
    ]);
    expect(witnessed(token({ perm: { addChart: true } }), forms)).toEqual([]);
  });

  it('see a tenant registered, and nothing in a refusal', () => {
    const path = '/v1/api/tenant/register-tenant';
    expect(witnessed(answer('POST', path, 200, { data: {} }), all)).toEqual([
      'tenant.identity-name',
    ]);
    expect(witnessed(answer('POST', path, 400, { error: {} }), all)).toEqual([]);
  });
});

describe('dashboard and tenant behaviour witnesses', () => {
  const chosen = [
    'dashboards.layout-strict',
    'tenants.split-optional',
    'dashboards.connections-unchecked',
  ] as const;
  const sent = (a: Answer, body: unknown): Answer => ({
    ...a,
    request: { ...a.request, body: Buffer.from(JSON.stringify(body)) },
  });

  it('see a layout edit refused for its chart', () => {
    const remove = '/v1/api/dashboard/remove-charts';
    const add = '/v1/api/dashboard/add-charts';
    const refused = (url: string, status: number, code: string, resource: string) =>
      answer('POST', url, status, { status: 'error', error: { code, details: { resource } } });
    expect(witnessed(refused(remove, 404, 'NOT_FOUND', 'chart'), chosen)).toEqual([
      'dashboards.layout-strict',
    ]);
    expect(witnessed(refused(remove, 404, 'NOT_FOUND', 'dashboard'), chosen)).toEqual([]);
    expect(witnessed(refused(add, 409, 'CONFLICT', 'chart'), chosen)).toEqual([
      'dashboards.layout-strict',
    ]);
    expect(witnessed(refused(add, 404, 'NOT_FOUND', 'chart'), chosen)).toEqual([]);
  });

  it('see a tenant registered with nothing to split on', () => {
    const ok = answer('POST', '/v1/api/tenant/register-tenant', 200, { data: {} });
    expect(witnessed(sent(ok, { apiKey: 'k', name: 'n' }), chosen)).toEqual([
      'tenants.split-optional',
    ]);
    expect(witnessed(sent(ok, { apiKey: 'k', tenantSchema: 's' }), chosen)).toEqual([]);
  });

  it('see a v1 write made with a connectionId', () => {
    const ok = answer('POST', '/v1/api/dashboard/clone', 200, { data: {} });
    expect(witnessed(sent(ok, { connectionId: 'c' }), chosen)).toEqual([
      'dashboards.connections-unchecked',
    ]);
    expect(witnessed(sent(ok, {}), chosen)).toEqual([]);
    const refused = answer('POST', '/v1/api/dashboard/clone', 404, { error: {} });
    expect(witnessed(sent(refused, { connectionId: 'c' }), chosen)).toEqual([]);
  });
});

describe('witnesses that remember the run', () => {
  const chosen = [
    'dashboards.append-same-charts',
    'dashboards.charts-renumbered',
    'dashboards.key-sees-all',
    'dashboards.clone-in-place',
  ] as const;
  const exchange = (
    method: string,
    url: string,
    sent: unknown,
    data: unknown,
    authorization = 'Bearer t1',
  ): Answer => ({
    request: {
      method,
      url,
      headers: { authorization },
      body: Buffer.from(JSON.stringify(sent)),
      origin: 'api',
    },
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: Buffer.from(JSON.stringify({ status: 'success', data })),
  });
  const list = (dashboards: unknown[], url = '/v1/api/dashboard/list-workspace-dashboards?w=1') =>
    exchange('GET', url, {}, { dashboards });

  it('see an append that placed a chart of its source', () => {
    const run = new Layouts();
    witnessed(list([{ id: 's', chartIds: ['c1'] }]), chosen, run);
    const append = (ids: string[]) =>
      exchange(
        'POST',
        '/v1/api/dashboard/append-charts-from',
        { sourceDashboardId: 's', targetDashboardId: 't' },
        { dashboardId: 't', chartIds: ids },
      );
    expect(witnessed(append(['c0', 'c1']), chosen, run)).toEqual(['dashboards.append-same-charts']);
    expect(witnessed(append(['c0', 'c9']), chosen, run)).toEqual([]);
  });

  it("see a user's copy holding none of the charts its dashboard showed", () => {
    const run = new Layouts();
    witnessed(list([{ id: 'd', chartIds: ['c1', 'c2'] }]), chosen, run);
    const add = (landed: string, ids: string[]) =>
      exchange(
        'POST',
        '/v1/api/dashboard/add-charts',
        { targetDashboardId: 'd', charts: ['x'] },
        { dashboardId: landed, chartIds: ids },
      );
    expect(witnessed(add('copy', ['n1', 'n2', 'x']), chosen, run)).toEqual([
      'dashboards.charts-renumbered',
    ]);
    expect(witnessed(add('copy', ['c1', 'c2', 'x']), chosen, run)).toEqual([]);
    expect(witnessed(add('d', ['n1', 'n2', 'x']), chosen, run)).toEqual([]);
  });

  it("see an API key's list showing a user's dashboard", () => {
    const url = '/v1/api/dashboard/list-workspace-dashboards?apiKey=k&workspaceId=w';
    const user = { id: 'c', chartIds: [], tenantId: 't', ownerProjectUserId: null };
    const shared = { id: 's', chartIds: [], tenantId: null, ownerProjectUserId: null };
    expect(witnessed(list([shared, user], url), chosen)).toEqual(['dashboards.key-sees-all']);
    expect(witnessed(list([shared], url), chosen)).toEqual([]);
    expect(witnessed(list([shared, user]), chosen)).toEqual([]);
  });

  it('see a clone listed where its source stood, for the credential that made it', () => {
    const run = new Layouts();
    const clone = exchange(
      'POST',
      '/v1/api/dashboard/clone',
      { sourceDashboardId: 's' },
      { dashboardId: 'k', name: 'x' },
    );
    witnessed(clone, chosen, run);
    expect(witnessed(list([{ id: 'k', chartIds: [] }]), chosen, run)).toEqual([
      'dashboards.clone-in-place',
    ]);
    expect(
      witnessed(
        list([
          { id: 's', chartIds: [] },
          { id: 'k', chartIds: [] },
        ]),
        chosen,
        run,
      ),
    ).toEqual([]);
    const other = { ...list([{ id: 'k', chartIds: [] }]) };
    const asOther: Answer = { ...other, request: { ...other.request, headers: {} } };
    expect(witnessed(asOther, chosen, run)).toEqual([]);
  });
});

describe('refusals a behaviour adds', () => {
  const chosen = ['v2.unmigrated-refused', 'charts.save-checked'] as const;

  it('see the application list refused, and a save from chat refused', () => {
    expect(witnessed(answer('GET', '/v2/api/applications?apiKey=k', 409, {}), chosen)).toEqual([
      'v2.unmigrated-refused',
    ]);
    expect(witnessed(answer('GET', '/v2/api/applications', 200, {}), chosen)).toEqual([]);
    expect(witnessed(answer('POST', '/v1/api/chart/save-from-chat', 403, {}), chosen)).toEqual([
      'charts.save-checked',
    ]);
    expect(witnessed(answer('POST', '/v1/api/chart/save-from-chat', 400, {}), chosen)).toEqual([]);
  });
});

describe('auth.both-forms', () => {
  it('makes a Bearer API key bare, and leaves tokens and bare keys alone', () => {
    expect(bareKey({ authorization: 'Bearer key-123', accept: '*/*' })).toEqual({
      authorization: 'key-123',
      accept: '*/*',
    });
    expect(bareKey({ authorization: `Bearer ${jwt({ alg: 'ES256' }, { sub: 'u' })}` })).toBe(
      undefined,
    );
    expect(bareKey({ authorization: 'key-123' })).toBe(undefined);
    expect(bareKey({})).toBe(undefined);
  });
});
