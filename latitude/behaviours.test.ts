import { describe, expect, it } from 'vitest';
import {
  Layouts,
  bareKey,
  newMemory,
  witnessed,
  witnessedInHooks,
  witnessing,
} from './behaviours.ts';
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

  it('see a chat answered to a token whose properties a later update replaced', () => {
    const memory = newMemory();
    const chosen = ['tokens.live-user'] as const;
    const update = {
      ...answer('PUT', '/v1/api/projects/p/users/U1', 200, { status: 'success', data: {} }),
    };
    const sent = {
      ...update.request,
      body: Buffer.from('{"name":"n","properties":{"b":2,"a":1}}'),
    };
    expect(witnessed({ ...update, request: sent }, chosen, memory)).toEqual([]);
    const chat = (payload: object) => {
      const a = answer('POST', '/v1/api/project-agents/x/chat', 200, {});
      const headers = { authorization: `Bearer ${jwt({ alg: 'ES256' }, payload)}` };
      return { ...a, request: { ...a.request, headers } };
    };
    expect(witnessed(chat({ sub: 'u1', props: { a: 0 } }), chosen, memory)).toEqual([
      'tokens.live-user',
    ]);
    // A token issued after the update carries what is stored: nothing to see.
    expect(witnessed(chat({ sub: 'u1', props: { a: 1, b: 2 } }), chosen, memory)).toEqual([]);
    expect(witnessed(chat({ uid: 'u1', ctx: { properties: { a: 0 } } }), chosen, memory)).toEqual([
      'tokens.live-user',
    ]);
    expect(witnessed(chat({ sub: 'u2', props: {} }), chosen, memory)).toEqual([]);
  });

  it('see a token of a user with no role that grants nothing, in any form', () => {
    const chosen = ['permissions.no-role-nothing'] as const;
    const token = (payload: object) =>
      answer('POST', '/v1/api/projects/user-token', 200, {
        data: { token: jwt({ alg: 'ES256' }, { kind: 'project-user', ...payload }) },
      });
    for (const nothing of [
      { rol: null, perm: { addChart: false, canSetDefaultDashboard: false } },
      { rol: null, 'https://eac.example/permissions': [] },
      { rol: null, scope: '' },
      { uid: 'u', ctx: { role: null, permissions: [] } },
    ])
      expect(witnessed(token(nothing), chosen), JSON.stringify(nothing)).toEqual(chosen);
    for (const something of [
      { rol: null, perm: { canSetDefaultDashboard: true } },
      { rol: null, scope: 'canSetDefaultDashboard' },
      { rol: 'r', perm: { addChart: false } },
    ])
      expect(witnessed(token(something), chosen), JSON.stringify(something)).toEqual([]);
  });

  it('see, in a hook answer, chart rows refused for their recursive SQL', () => {
    const refused = answer('POST', '/__eac/accounts/o/charts/c/data', 400, {
      status: 'error',
      error: { message: 'the SQL was refused: recursive queries are not allowed' },
    });
    expect(witnessedInHooks(refused, ['sql.no-recursion'])).toEqual(['sql.no-recursion']);
    expect(witnessedInHooks(refused, ['tokens.hs256'])).toEqual([]);
    const other = answer('POST', '/__eac/accounts/o/charts/c/data', 400, { status: 'error' });
    expect(witnessedInHooks(other, ['sql.no-recursion'])).toEqual([]);
  });

  it('see, in a hook answer, chart rows holding a boolean property as text', () => {
    const rows = (vip: unknown) =>
      answer('POST', '/__eac/accounts/o/charts/c/data', 200, {
        status: 'success',
        data: { rows: [{ product: 'Anvil', vip, total: 3 }] },
      });
    const chosen = ['properties.bound-as-text'] as const;
    expect(witnessedInHooks(rows('true'), chosen)).toEqual(chosen);
    expect(witnessedInHooks(rows(true), chosen)).toEqual([]);
    expect(witnessedInHooks(rows('true'), ['sql.no-recursion'])).toEqual([]);
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
    witnessed(list([{ id: 's', chartIds: ['c1'] }]), chosen, newMemory(), run);
    const append = (ids: string[]) =>
      exchange(
        'POST',
        '/v1/api/dashboard/append-charts-from',
        { sourceDashboardId: 's', targetDashboardId: 't' },
        { dashboardId: 't', chartIds: ids },
      );
    expect(witnessed(append(['c0', 'c1']), chosen, newMemory(), run)).toEqual([
      'dashboards.append-same-charts',
    ]);
    expect(witnessed(append(['c0', 'c9']), chosen, newMemory(), run)).toEqual([]);
  });

  it('see an append whose source a later read-back through the hooks shows', () => {
    const witness = witnessing(chosen);
    const append = (source: string, ids: string[]) =>
      exchange(
        'POST',
        '/v1/api/dashboard/append-charts-from',
        { sourceDashboardId: source, targetDashboardId: 't' },
        { dashboardId: 't', chartIds: ids },
      );
    const layout = (id: string, chartIds: string[]) =>
      exchange(
        'GET',
        `/__eac/accounts/o/dashboards/${id}/charts`,
        {},
        { dashboardId: id, chartIds },
      );
    expect(witness(append('s', ['c0', 'c1']))).toEqual([]);
    expect(witness(append('u', ['c0', 'c7']))).toEqual([]);
    // Copies: the source shows other ids than the ones placed.
    expect(witness(layout('u', ['c8']), true)).toEqual([]);
    expect(witness(layout('s', ['c1']), true)).toEqual(['dashboards.append-same-charts']);
    // Seen once: a second read of the same source witnesses nothing more.
    expect(witness(layout('s', ['c1']), true)).toEqual([]);
  });

  it("see a user's copy holding none of the charts its dashboard showed", () => {
    const run = new Layouts();
    witnessed(list([{ id: 'd', chartIds: ['c1', 'c2'] }]), chosen, newMemory(), run);
    const add = (landed: string, ids: string[]) =>
      exchange(
        'POST',
        '/v1/api/dashboard/add-charts',
        { targetDashboardId: 'd', charts: ['x'] },
        { dashboardId: landed, chartIds: ids },
      );
    expect(witnessed(add('copy', ['n1', 'n2', 'x']), chosen, newMemory(), run)).toEqual([
      'dashboards.charts-renumbered',
    ]);
    expect(witnessed(add('copy', ['c1', 'c2', 'x']), chosen, newMemory(), run)).toEqual([]);
    expect(witnessed(add('d', ['n1', 'n2', 'x']), chosen, newMemory(), run)).toEqual([]);
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
    witnessed(clone, chosen, newMemory(), run);
    expect(witnessed(list([{ id: 'k', chartIds: [] }]), chosen, newMemory(), run)).toEqual([
      'dashboards.clone-in-place',
    ]);
    expect(
      witnessed(
        list([
          { id: 's', chartIds: [] },
          { id: 'k', chartIds: [] },
        ]),
        chosen,
        newMemory(),
        run,
      ),
    ).toEqual([]);
    const other = { ...list([{ id: 'k', chartIds: [] }]) };
    const asOther: Answer = { ...other, request: { ...other.request, headers: {} } };
    expect(witnessed(asOther, chosen, newMemory(), run)).toEqual([]);
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

describe('dashboards.v1-project-users', () => {
  const chosen = ['dashboards.v1-project-users'] as const;
  const by = (kind: string, url: string, status: number): Answer => {
    const a = answer('POST', url, status, {});
    const authorization = `Bearer ${jwt({ alg: 'ES256' }, { sub: 'u', kind })}`;
    return { ...a, request: { ...a.request, headers: { authorization } } };
  };

  it('sees a v1 call beside clone answered to a project-user token, and nothing else', () => {
    expect(witnessed(by('project-user', '/v1/api/dashboard/remove-charts', 200), chosen)).toEqual([
      'dashboards.v1-project-users',
    ]);
    expect(witnessed(by('project-user', '/v1/api/dashboard/remove-charts', 403), chosen)).toEqual(
      [],
    );
    expect(witnessed(by('project-user', '/v1/api/dashboard/clone', 200), chosen)).toEqual([]);
    expect(witnessed(by('tenant', '/v1/api/dashboard/remove-charts', 200), chosen)).toEqual([]);
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

describe('chat behaviour witnesses', () => {
  const AGENT = '8d3c5a8e-1111-4222-8333-944455556666';
  const chosen = ['chat.requests-answered', 'chat.version-carried', 'chat.sliding-window'] as const;
  const stream = (events: object[]) => events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('');
  function chatAnswer(body: object, status: number, text: string, type = 'text/event-stream') {
    return {
      request: {
        method: 'POST',
        url: `/v1/api/project-agents/${AGENT}/chat`,
        headers: { authorization: 'Bearer t' },
        body: Buffer.from(JSON.stringify(body)),
        origin: 'api' as const,
      },
      status,
      headers: { 'content-type': type },
      body: Buffer.from(text),
    };
  }
  const asked = (payload: object, messages: object[] = [{ role: 'user', content: 'q' }]) => ({
    messages,
    payload: { agent_id: AGENT, ...payload },
  });
  const TEXT = stream([{ type: 'text-start' }, { type: 'text-end' }]);

  it('see a stream answering a body the decisions refuse, and nothing else', () => {
    const see = witnessing(chosen);
    expect(see(chatAnswer(asked({ agent_id: 'other' }), 200, TEXT))).toEqual([
      'chat.requests-answered',
    ]);
    expect(see(chatAnswer(asked({}, []), 201, TEXT))).toEqual(['chat.requests-answered']);
    expect(see(chatAnswer(asked({ agent_version: 0 }), 200, TEXT))).toEqual([
      'chat.requests-answered',
    ]);
    expect(see(chatAnswer(asked({ agent_version: 2 }), 200, TEXT))).toEqual([]);
    const refused = chatAnswer(asked({ agent_id: 'other' }), 400, '{}', 'application/json');
    expect(see(refused)).toEqual([]);
  });

  it("see a thread's earlier pin answer a later message that pins none", () => {
    const see = witnessing(chosen);
    const v = (n: number) => stream([{ type: 'start', payload: { agentVersion: n } }]);
    expect(see(chatAnswer({ ...asked({ agent_version: 1 }), thread_id: 'a' }, 200, v(1)))).toEqual(
      [],
    );
    expect(see(chatAnswer({ ...asked({}), thread_id: 'b' }, 200, v(1)))).toEqual([]);
    expect(see(chatAnswer({ ...asked({}), thread_id: 'a' }, 200, v(3)))).toEqual([]);
    expect(see(chatAnswer({ ...asked({}), thread_id: 'a' }, 200, v(1)))).toEqual([
      'chat.version-carried',
    ]);
  });

  it('see a refusal naming a sliding window', () => {
    const see = witnessing(chosen);
    const refusal = (window: string) =>
      chatAnswer(
        asked({}),
        429,
        JSON.stringify({ status: 'error', error: { message: 'm', details: { window } } }),
        'application/json',
      );
    expect(see(refusal('sliding'))).toEqual(['chat.sliding-window']);
    expect(see(refusal('fixed'))).toEqual([]);
    expect(witnessing([])(refusal('sliding'))).toEqual([]);
  });
});

describe('hub behaviour witnesses', () => {
  const chosen = [
    'hub.dashboard-redirect',
    'hub.no-scheduled-reports',
    'hub.unloadable-line-only',
  ] as const;
  function hub(url: string, status: number, html: string, headers: Record<string, string> = {}) {
    return {
      request: { method: 'GET', url, headers: {}, body: Buffer.alloc(0), origin: 'hub' as const },
      status,
      headers: { 'content-type': 'text/html', ...headers },
      body: Buffer.from(html),
    };
  }
  const see = witnessing(chosen);

  it('see the dashboard page redirect to the application page with dashboardId', () => {
    const to = { location: '/share/application/a?jwt=x&dashboardId=d' };
    expect(see(hub('/share/dashboard/d?jwt=x', 302, '', to))).toEqual(['hub.dashboard-redirect']);
    expect(see(hub('/share/application/a?jwt=x', 302, '', to))).toEqual([]);
    expect(see(hub('/share/dashboard/d?jwt=x', 200, '<main></main>'))).toEqual([]);
  });

  it('see a granted Schedule report withheld, in any form of the permissions', () => {
    const page = (payload: object, html: string) =>
      hub(`/share/dashboard/d?jwt=${jwt({ alg: 'ES256' }, payload)}`, 200, html);
    const granted = { perm: { enableScheduleReport: true } };
    expect(see(page(granted, '<main></main>'))).toEqual(['hub.no-scheduled-reports']);
    expect(see(page({ scope: 'enableScheduleReport' }, '<main></main>'))).toEqual([
      'hub.no-scheduled-reports',
    ]);
    expect(see(page(granted, '<button>Schedule report</button>'))).toEqual([]);
    expect(see(page({ perm: { enableScheduleReport: false } }, '<main></main>'))).toEqual([]);
  });

  it('see a status line with no table after it', () => {
    expect(see(hub('/share/dashboard/d', 200, '<p role="status">no SQL</p></figure>'))).toEqual([
      'hub.unloadable-line-only',
    ]);
    expect(see(hub('/share/dashboard/d', 200, '<p role="status">x</p><table></table>'))).toEqual(
      [],
    );
  });
});

describe('hub.filter-text witness', () => {
  const page = (query: string, html: string) => ({
    request: {
      method: 'GET',
      url: `/share/dashboard/d?jwt=x&${query}`,
      headers: {},
      body: Buffer.alloc(0),
      origin: 'hub' as const,
    },
    status: 200,
    headers: { 'content-type': 'text/html' },
    body: Buffer.from(html),
  });
  const see = witnessing(['hub.filter-text']);
  it('sees an input holding a value that is not JSON, and nothing for a JSON one', () => {
    const input = (v: string) => `<input id="f" name="filter_channel" value="${v}">`;
    expect(see(page('filter_channel=store', input('store')))).toEqual(['hub.filter-text']);
    expect(see(page('filter_channel=store', input('')))).toEqual([]);
    expect(see(page('filter_channel=%22store%22', input('store')))).toEqual([]);
  });
});

describe('hub.v1-component-dashboard-page witness', () => {
  const see = witnessing(['hub.v1-component-dashboard-page']);
  const moved = (from: string, location: string) => ({
    request: {
      method: 'GET',
      url: from,
      headers: {},
      body: Buffer.alloc(0),
      origin: 'hub' as const,
    },
    status: 302,
    headers: { location },
    body: Buffer.alloc(0),
  });
  it('sees an application page sent to another application, not to itself', () => {
    expect(see(moved('/share/application/v1?jwt=x', '/share/application/v2?jwt=x'))).toEqual([
      'hub.v1-component-dashboard-page',
    ]);
    expect(see(moved('/share/application/a?jwt=x', '/share/application/a?jwt=x&b=1'))).toEqual([]);
    expect(see(moved('/share/dashboard/d?jwt=x', '/share/application/a?dashboardId=d'))).toEqual(
      [],
    );
  });
});

describe('hub.drill-sampled witness', () => {
  const page = (html: string) => ({
    request: {
      method: 'GET',
      url: '/share/dashboard/d?drillChart=c&drillValue=%22Anvil%22',
      headers: {},
      body: Buffer.alloc(0),
      origin: 'hub' as const,
    },
    status: 200,
    headers: { 'content-type': 'text/html' },
    body: Buffer.from(html),
  });
  it("sees the rows behind a sampled chart's point said to set the sample aside", () => {
    const said = '<p>3 rows (read-only). Every row is shown; the chart itself reads a sample.</p>';
    expect(witnessing(['hub.drill-sampled'])(page(said))).toEqual(['hub.drill-sampled']);
    expect(witnessing(['hub.drill-sampled'])(page('<p>3 rows (read-only).</p>'))).toEqual([]);
  });
});

describe('tenant users and users without an organization', () => {
  const chosen = ['migration.tenants-shared-organization', 'v2.no-organization-own-space'] as const;
  const registered = (payload: object) =>
    answer('POST', '/v1/api/tenant/register-tenant', 200, {
      status: 'success',
      data: { message: 'm', token: jwt({ alg: 'ES256' }, { kind: 'project-user', ...payload }) },
    });
  const called = (method: string, url: string, status: number, payload: object) => {
    const a = answer(method, url, status, {});
    const headers = { authorization: `Bearer ${jwt({ alg: 'ES256' }, payload)}` };
    return { ...a, request: { ...a.request, headers } };
  };

  it('see a second tenant user placed in the project organization of the first', () => {
    const memory = newMemory();
    expect(witnessed(registered({ sub: 'u1', pog: 'o1' }), chosen, memory)).toEqual([]);
    // The same user again (registered once more), and another user elsewhere: nothing shared.
    expect(witnessed(registered({ sub: 'u1', pog: 'o1' }), chosen, memory)).toEqual([]);
    expect(witnessed(registered({ sub: 'u2', pog: 'o2' }), chosen, memory)).toEqual([]);
    expect(
      witnessed(registered({ uid: 'u3', ctx: { organization: 'o1' } }), chosen, memory),
    ).toEqual(['migration.tenants-shared-organization']);
    // A tenant token (before finalize) places no user.
    const tenant = answer('POST', '/v1/api/tenant/register-tenant', 200, {
      data: { token: jwt({ alg: 'ES256' }, { kind: 'tenant', sub: 't', org: 'o1' }) },
    });
    expect(witnessed(tenant, chosen, memory)).toEqual([]);
  });

  it('see a user with no project organization read an application, or meet the 409 first', () => {
    const spaceless = { kind: 'project-user', sub: 'u', pog: null };
    const list = '/v2/api/applications/a/dashboards';
    const edit = '/v2/api/applications/a/dashboards/d/charts';
    expect(witnessed(called('GET', list, 200, spaceless), chosen)).toEqual([
      'v2.no-organization-own-space',
    ]);
    expect(witnessed(called('POST', edit, 409, spaceless), chosen)).toEqual([
      'v2.no-organization-own-space',
    ]);
    expect(
      witnessed(
        called('GET', '/v2/api/dashboards/d/lookup', 200, {
          kind: 'project-user',
          uid: 'u',
          ctx: { organization: null },
        }),
        chosen,
      ),
    ).toEqual(['v2.no-organization-own-space']);
    expect(witnessed(called('GET', list, 403, spaceless), chosen)).toEqual([]);
    expect(witnessed(called('GET', '/v2/api/applications', 200, spaceless), chosen)).toEqual([]);
    expect(witnessed(called('GET', list, 200, { ...spaceless, pog: 'o' }), chosen)).toEqual([]);
  });
});

describe('tenants.permissions-at-issue, tokens.embed-creates-only, charts.save-name-required, tokens.embed-known-only', () => {
  const sentBy = (a: Answer, headers: Record<string, string>, body: unknown): Answer => ({
    ...a,
    request: { ...a.request, headers, body: Buffer.from(JSON.stringify(body)) },
  });

  it('see a write made with a tenant token issued before the tenant was made view-only', () => {
    const chosen = ['tenants.permissions-at-issue'] as const;
    const memory = newMemory();
    const editing = { kind: 'tenant', sub: 'T1', perm: { addChart: true, removeChart: true } };
    const viewOnly = { kind: 'tenant', sub: 't1', perm: { addChart: true, readOnly: true } };
    const registered = (payload: object) =>
      answer('POST', '/v1/api/tenant/register-tenant', 200, {
        data: { token: jwt({ alg: 'ES256' }, payload) },
      });
    const removal = (payload: object, status = 200) =>
      sentBy(
        answer('POST', '/v1/api/dashboard/remove-charts', status, { data: {} }),
        { authorization: `Bearer ${jwt({ alg: 'ES256' }, payload)}` },
        {},
      );
    expect(witnessed(registered(editing), chosen, memory)).toEqual([]);
    // Still editing when it was last registered: nothing to see.
    expect(witnessed(removal(editing), chosen, memory)).toEqual([]);
    expect(witnessed(registered(viewOnly), chosen, memory)).toEqual([]);
    expect(witnessed(removal(editing), chosen, memory)).toEqual(chosen);
    // Refused as stored now (the decision), or made with the new view-only token: not it.
    expect(witnessed(removal(editing, 403), chosen, memory)).toEqual([]);
    expect(witnessed(removal(viewOnly), chosen, memory)).toEqual([]);
    // Nested layout, and a v2 write.
    const nested = { kind: 'tenant', uid: 't1', ctx: { permissions: { addDashboard: true } } };
    const v2 = sentBy(
      answer('POST', '/v2/api/applications/a/dashboards', 201, { data: {} }),
      { authorization: `Bearer ${jwt({ alg: 'ES256' }, nested)}` },
      { name: 'x' },
    );
    expect(witnessed(v2, chosen, memory)).toEqual(chosen);
  });

  it('see an embed token that kept the stored user over what the body sent', () => {
    const chosen = ['tokens.embed-creates-only'] as const;
    const embed = (payload: object, user: object) =>
      sentBy(
        answer('POST', '/v1/api/projects/embed-token', 200, {
          data: { token: jwt({ alg: 'ES256' }, { kind: 'project-user', ...payload }) },
        }),
        {},
        { organization: { externalId: 'e' }, user },
      );
    const sent = { name: 'New', properties: { a: 1 }, userRoleId: 'r2' };
    const flat = { name: 'New', props: { a: 1 }, rol: 'r2' };
    expect(witnessed(embed(flat, sent), chosen)).toEqual([]);
    expect(witnessed(embed({ ...flat, name: 'Old' }, sent), chosen)).toEqual(chosen);
    expect(witnessed(embed({ ...flat, props: { a: 0 } }, sent), chosen)).toEqual(chosen);
    expect(witnessed(embed({ ...flat, rol: 'r1' }, sent), chosen)).toEqual(chosen);
    const nested = { name: 'New', uid: 'u', ctx: { properties: { a: 1 }, role: 'r2' } };
    expect(witnessed(embed(nested, sent), chosen)).toEqual([]);
    expect(
      witnessed(embed({ ...nested, ctx: { properties: {}, role: 'r2' } }, sent), chosen),
    ).toEqual(chosen);
    // What the body leaves out is none of it.
    expect(witnessed(embed({ ...flat, props: { b: 2 } }, { name: 'New' }), chosen)).toEqual([]);
  });

  it('see an embed-token refused for the organization or user the project does not hold', () => {
    const chosen = ['tokens.embed-known-only'] as const;
    const refusal = (details: object) => ({
      status: 'error',
      error: { message: 'not found', code: 'NOT_FOUND', details },
    });
    const embed = (status: number, body: unknown) =>
      sentBy(answer('POST', '/v1/api/projects/embed-token', status, body), {}, {});
    expect(
      witnessed(
        embed(404, refusal({ resource: 'projectOrganization', field: 'externalId' })),
        chosen,
      ),
    ).toEqual(chosen);
    expect(witnessed(embed(404, refusal({ resource: 'user', field: 'id' })), chosen)).toEqual(
      chosen,
    );
    expect(
      witnessed(embed(404, refusal({ resource: 'role', field: 'userRoleId' })), chosen),
    ).toEqual([]);
    expect(witnessed(embed(200, { data: {} }), chosen)).toEqual([]);
  });

  it('see a save-from-chat refused for the name it lacked', () => {
    const chosen = ['charts.save-name-required'] as const;
    const refusal = (path: unknown[]) => ({
      status: 'error',
      error: {
        message: 'invalid body',
        code: 'VALIDATION_ERROR',
        details: { issues: [{ path, message: 'required', code: 'invalid_type' }] },
      },
    });
    const save = (status: number, body: unknown, sent: object) =>
      sentBy(answer('POST', '/v1/api/chart/save-from-chat', status, body), {}, sent);
    expect(witnessed(save(400, refusal(['body', 'name']), { chartConfig: {} }), chosen)).toEqual(
      chosen,
    );
    expect(witnessed(save(400, refusal(['body', 'chartConfig']), { name: 'n' }), chosen)).toEqual(
      [],
    );
    expect(
      witnessed(save(400, refusal(['body', 'chartConfig', 'name']), { chartConfig: {} }), chosen),
    ).toEqual([]);
    expect(witnessed(save(200, { data: {} }, { chartConfig: {} }), chosen)).toEqual([]);
  });
});
