import { describe, expect, it } from 'vitest';
import { postData, referenceForTests } from '../test-client.ts';

// The hub pages (§4.17) as plain HTTP serves them, without a browser: which token opens
// which page, which dashboards and rows a page holds, what the §2.2 flags of the token's role
// let it show, and the decisions of spec/clauses/s4-hub.ts. How the HTML is laid out (roles and
// accessible names) is reference/hub/html.test.ts; here the page is read with plain string
// checks of the names the reference's hub profile gives (fixtures/profiles/reference.json).

/** The rows of the connection: a user sees a row only when its region is the user's. */
const SALES = [
  { region: 'north', product: 'Anvil', channel: 'online', amount: 10 },
  { region: 'north', product: 'Anvil', channel: 'store', amount: 5 },
  { region: 'north', product: 'Bolt', channel: 'online', amount: 7 },
  { region: 'north', product: 'Crane', channel: 'store', amount: 3 },
  { region: 'south', product: 'Anvil', channel: 'online', amount: 100 },
  { region: 'south', product: 'Drill', channel: 'store', amount: 50 },
];
const CHART_SQL =
  'SELECT product, SUM(amount) AS total FROM hub_sales GROUP BY product ORDER BY product';
const CHART = 'Sales by product';
const UNLOADABLE = 'Saved without SQL';

/** `product|total` rows the chart shows a user of `region`, of `channel` when given. */
function totals(region: string, channel?: string): string[][] {
  const sums = new Map<string, number>();
  for (const s of SALES)
    if (s.region === region && (channel === undefined || s.channel === channel))
      sums.set(s.product, (sums.get(s.product) ?? 0) + s.amount);
  return [...sums].sort(([a], [b]) => a.localeCompare(b)).map(([p, n]) => [p, String(n)]);
}

const INVALID = 'Invalid or missing token.';
const NOT_FOUND = 'Dashboard not found.';
const NOBODY = '00000000-0000-4000-8000-000000000000';

/* ---------- reading a page with string checks ---------- */

const decode = (s: string) =>
  s
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');

/** The text of every `<button>`, in order. */
const buttons = (html: string) =>
  [...html.matchAll(/<button\b[^>]*>(.*?)<\/button>/g)].map((m) => decode(m[1]!));
/** What follows the figure of a chart, to the end of that figure. */
function figure(html: string, title: string): string | undefined {
  const at = html.indexOf(`<figure role="figure" aria-label="${title}"`);
  return at === -1 ? undefined : html.slice(at, html.indexOf('</figure>', at));
}
/** The first table of a piece of HTML, as rows of cell texts (header row first). */
const table = (html: string) =>
  [...(html.match(/<table>.*?<\/table>/)?.[0] ?? '').matchAll(/<tr>(.*?)<\/tr>/g)].map((r) =>
    [...r[1]!.matchAll(/<t[hd][^>]*>(.*?)<\/t[hd]>/g)].map((c) => decode(c[1]!)),
  );
/** The dashboards a page holds (its sections), and which one it shows. */
function sections(html: string) {
  const all = [...html.matchAll(/<section [^>]*data-dashboard="([^"]+)"([^>]*)>/g)];
  return {
    ids: all.map((m) => m[1]!),
    shown: all.filter((m) => !/\bhidden\b/.test(m[2]!)).map((m) => m[1]!),
  };
}
/** The HTML of the shown dashboard's section. */
function shownSection(html: string): string {
  const m = /<section [^>]*data-dashboard="[^"]+"(?![^>]*\bhidden\b)[^>]*>/.exec(html);
  if (m === null) throw new Error('no dashboard shown');
  return html.slice(m.index, html.indexOf('</section>', m.index));
}
/** The region of the rows behind a point (profile drillDownRows: "Rows behind {value}"). */
function drillRegion(html: string, value: string): string | undefined {
  const at = html.indexOf(`role="region" aria-label="Rows behind ${value}"`);
  return at === -1 ? undefined : html.slice(at, html.indexOf('</div>', at));
}

describe('hub pages over HTTP', () => {
  const ref = referenceForTests({ hooks: true, seed: 1217 });

  const send = postData;
  const hook = (path: string, body: unknown) => send(`${ref.hooks}${path}`, body);
  const api = (path: string, body: unknown) => send(`${ref.url}${path}`, body);

  interface Account {
    readonly org: string;
    readonly key: string;
    readonly projectId: string;
    readonly workspaceId: string;
    readonly primaryId: string;
    readonly boardId: string;
    readonly chartId: string;
    /** A dashboard of another workspace of the account. */
    readonly elsewhereId: string;
    readonly elsewhereWorkspaceId: string;
  }

  async function account(): Promise<Account> {
    const made = await hook('/accounts', {});
    const org = String(made['organizationId']);
    const key = String(made['orgBoundKey']);
    const { projectId } = await hook(`/accounts/${org}/projects`, {});
    await hook(`/accounts/${org}/connections`, {
      name: 'hub sales',
      table: {
        name: 'hub_sales',
        columns: [
          { name: 'region', type: 'text' },
          { name: 'product', type: 'text' },
          { name: 'channel', type: 'text' },
          { name: 'amount', type: 'integer' },
        ],
        rows: SALES,
      },
      rowFilters: [{ column: 'region', property: 'region' }],
    });
    const ws = await hook(`/accounts/${org}/workspaces`, {
      name: 'Sales',
      dashboardName: 'Overview',
    });
    const workspaceId = String(ws['workspaceId']);
    const board = await hook(`/accounts/${org}/workspaces/${workspaceId}/dashboards`, {
      name: 'Board',
      controls: [{ controlKey: 'channel', field: 'channel', label: 'Channel' }],
    });
    const boardId = String(board['dashboardId']);
    const field = (f: string) => ({ name: f, field: f, label: f, format: '' });
    const chart = await hook(`/accounts/${org}/dashboards/${boardId}/charts`, {
      name: CHART,
      chartConfig: {
        title: CHART,
        type: 'bar',
        dimensions: [field('product')],
        measures: [field('total')],
        sqlOverride: CHART_SQL,
      },
    });
    await hook(`/accounts/${org}/dashboards/${boardId}/charts`, {
      name: UNLOADABLE,
      chartConfig: {
        title: UNLOADABLE,
        type: 'bar',
        dimensions: [field('region'), field('product')],
        measures: [field('total'), field('region')],
      },
    });
    const other = await hook(`/accounts/${org}/workspaces`, {
      name: 'Elsewhere',
      dashboardName: 'Elsewhere board',
    });
    return {
      org,
      key,
      projectId: String(projectId),
      workspaceId,
      primaryId: String(ws['dashboardId']),
      boardId,
      chartId: String(chart['chartId']),
      elsewhereId: String(other['dashboardId']),
      elsewhereWorkspaceId: String(other['workspaceId']),
    };
  }

  let shared: Promise<Account> | undefined;
  const world = () => (shared ??= account());

  /** A project user of `properties` on a role of these §2.2 flags, and a fresh token. */
  async function viewer(
    a: Account,
    permissions: Record<string, boolean> | null,
    properties: Record<string, unknown> = { region: 'north' },
  ): Promise<{ userId: string; token: string }> {
    const role =
      permissions === null
        ? undefined
        : await hook(`/accounts/${a.org}/projects/${a.projectId}/roles`, {
            name: `role ${JSON.stringify(permissions)}`,
            permissions,
          });
    const org = await api('/v1/api/projects/register-organization', {
      apiKey: a.key,
      projectId: a.projectId,
      name: 'Customer',
    });
    const { userId } = await api('/v1/api/projects/register-user', {
      apiKey: a.key,
      projectId: a.projectId,
      name: 'Viewer',
      properties,
      projectOrganizationId: org['projectOrganizationId'],
      ...(role === undefined ? {} : { userRoleId: role['id'] }),
    });
    const { token } = await api('/v1/api/projects/user-token', { apiKey: a.key, userId });
    return { userId: String(userId), token: String(token) };
  }

  async function page(path: string, query: Record<string, string | undefined> = {}) {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) if (v !== undefined) q.set(k, v);
    const res = await fetch(`${ref.running.hubUrl}${path}${q.size > 0 ? `?${q.toString()}` : ''}`);
    return { status: res.status, headers: res.headers, html: await res.text() };
  }
  const alert = (html: string) => /<p role="alert">(.*?)<\/p>/.exec(html)?.[1];

  describe('which token opens a page (§4.17, §5 rule 6; decision hub.errors.status)', () => {
    it("answers 401 'Invalid or missing token.' on both pages without a usable jwt, before looking at the id", async () => {
      const a = await world();
      const { token } = await viewer(a, {});
      const tampered = `${token.slice(0, -4)}${token.slice(-4) === 'AAAA' ? 'BBBB' : 'AAAA'}`;
      for (const jwt of [undefined, '', 'not-a-jwt', 'a.b.c', tampered])
        for (const path of [
          `/share/dashboard/${a.boardId}`,
          `/share/application/${a.workspaceId}`,
          `/share/dashboard/${NOBODY}`,
          '/share/dashboard/not-a-uuid',
        ]) {
          const res = await page(path, { jwt });
          expect(res.status, `${path} jwt=${String(jwt)}`).toBe(401);
          expect(alert(res.html), `${path} jwt=${String(jwt)}`).toBe(INVALID);
          expect(res.html).not.toContain(CHART);
        }
    });

    it('refuses a tenant JWT of the very account (§5 rule 6: the pages need a project-user token)', async () => {
      const a = await world();
      const tenant = await api('/v1/api/tenant/register-tenant', {
        apiKey: a.key,
        name: 'Tenant',
        tenantColumns: { customer_id: 'c-1' },
        permissions: { addChart: true, drillDown: true },
      });
      const jwt = String(tenant['token']);
      for (const path of [`/share/dashboard/${a.boardId}`, `/share/application/${a.workspaceId}`]) {
        const res = await page(path, { jwt });
        expect(res.status, path).toBe(401);
        expect(alert(res.html), path).toBe(INVALID);
      }
    });

    it('refuses a tenant JWT even when a project user has the id its subject names', async () => {
      const a = await account();
      const tenant = await api('/v1/api/tenant/register-tenant', {
        apiKey: a.key,
        name: 'Tenant',
        tenantColumns: { customer_id: 'c-2' },
      });
      const jwt = String(tenant['token']);
      const payload = JSON.parse(
        Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8'),
      ) as { sub?: unknown };
      const org = await api('/v1/api/projects/register-organization', {
        apiKey: a.key,
        projectId: a.projectId,
        name: 'Customer',
      });
      await api('/v1/api/projects/register-user', {
        apiKey: a.key,
        projectId: a.projectId,
        name: 'Same id',
        properties: { region: 'north' },
        projectOrganizationId: org['projectOrganizationId'],
        userId: payload.sub,
      });
      const res = await page(`/share/dashboard/${a.boardId}`, { jwt });
      expect(res.status).toBe(401);
      expect(alert(res.html)).toBe(INVALID);
    });

    it('refuses a token once its lifetime is over (§5 rule 5: 1h by default), on the account clock', async () => {
      const a = await account();
      const { token } = await viewer(a, {});
      expect((await page(`/share/dashboard/${a.boardId}`, { jwt: token })).status).toBe(200);
      await hook(`/accounts/${a.org}/clock/advance`, { seconds: 3601 });
      const res = await page(`/share/dashboard/${a.boardId}`, { jwt: token });
      expect(res.status).toBe(401);
      expect(alert(res.html)).toBe(INVALID);
    });

    it("answers 404 'Dashboard not found.' for an id the token cannot see", async () => {
      const a = await world();
      const theirs = await account();
      const { token: jwt } = await viewer(a, {});
      for (const path of [
        `/share/dashboard/${NOBODY}`,
        '/share/dashboard/not-a-uuid',
        `/share/dashboard/${theirs.boardId}`,
        `/share/application/${NOBODY}`,
        '/share/application/not-a-uuid',
        `/share/application/${theirs.workspaceId}`,
        // A dashboard id is not an application id, nor an application id a dashboard id.
        `/share/application/${a.boardId}`,
        `/share/dashboard/${a.workspaceId}`,
      ]) {
        const res = await page(path, { jwt });
        expect(res.status, path).toBe(404);
        expect(alert(res.html), path).toBe(NOT_FOUND);
        expect(res.html, path).not.toContain(CHART);
      }
      // §4.17 dashboardId: a dashboard of another application, or none, is not found either.
      for (const dashboardId of [a.elsewhereId, theirs.boardId, NOBODY, 'nope']) {
        const res = await page(`/share/application/${a.workspaceId}`, { jwt, dashboardId });
        expect(res.status, dashboardId).toBe(404);
        expect(alert(res.html), dashboardId).toBe(NOT_FOUND);
      }
    });

    it('serves every page as HTML whose only script runs by the nonce the policy names', async () => {
      const a = await world();
      const { token: jwt } = await viewer(a, {});
      for (const res of [
        await page(`/share/dashboard/${a.boardId}`, { jwt }),
        await page(`/share/dashboard/${a.boardId}`),
        await page(`/share/dashboard/${NOBODY}`, { jwt }),
      ]) {
        expect(res.headers.get('content-type')).toMatch(/^text\/html/);
        const policy = res.headers.get('content-security-policy') ?? '';
        const nonce = /script-src 'nonce-([^']+)'/.exec(policy)?.[1];
        expect(nonce, policy).toBeDefined();
        expect(policy).not.toContain('unsafe-inline');
        expect(policy).toMatch(/default-src 'none'/);
        for (const m of res.html.matchAll(/<script\b([^>]*)>/g))
          if (!m[1]!.includes('type="application/json"'))
            expect(m[1]).toContain(`nonce="${nonce}"`);
      }
      // A fresh nonce each time.
      const nonces = await Promise.all(
        [1, 2].map(async () => (await page(`/share/dashboard/${a.boardId}`, { jwt })).headers),
      );
      expect(nonces[0]!.get('content-security-policy')).not.toBe(
        nonces[1]!.get('content-security-policy'),
      );
    });
  });

  describe('which dashboards a page holds (§4.17)', () => {
    it('opens a dashboard in its application: every dashboard of it, navigation, this one shown', async () => {
      const a = await world();
      const { token: jwt } = await viewer(a, {});
      for (const id of [a.boardId, a.boardId.toUpperCase()]) {
        const { status, html } = await page(`/share/dashboard/${id}`, { jwt });
        expect(status).toBe(200);
        expect(new Set(sections(html).ids)).toEqual(new Set([a.primaryId, a.boardId]));
        expect(sections(html).shown).toEqual([a.boardId]);
        expect(html).toContain('<nav aria-label="Dashboards">');
        expect(html).toMatch(
          new RegExp(`data-dashboard="${a.boardId}" aria-current="page">Board<`),
        );
        expect(html).not.toContain('Elsewhere');
      }
    });

    it('opens a whole application with navigation, one dashboard shown', async () => {
      const a = await world();
      const { token: jwt } = await viewer(a, {});
      const { status, html } = await page(`/share/application/${a.workspaceId}`, { jwt });
      expect(status).toBe(200);
      expect(new Set(sections(html).ids)).toEqual(new Set([a.primaryId, a.boardId]));
      expect(sections(html).shown.length).toBe(1);
      expect(html).toContain('<nav aria-label="Dashboards">');
      expect(html).toContain('role="tablist"');
      const upper = await page(`/share/application/${a.workspaceId.toUpperCase()}`, { jwt });
      expect(upper.status).toBe(200);
    });

    it('shows exactly the dashboardId dashboard, without sidebar or tabs', async () => {
      const a = await world();
      const { token: jwt } = await viewer(a, {});
      for (const dashboardId of [a.boardId, a.boardId.toUpperCase()]) {
        const { status, html } = await page(`/share/application/${a.workspaceId}`, {
          jwt,
          dashboardId,
        });
        expect(status).toBe(200);
        expect(sections(html)).toEqual({ ids: [a.boardId], shown: [a.boardId] });
        expect(html).not.toContain('<nav');
        expect(html).not.toContain('role="tablist"');
        expect(figure(html, CHART)).toBeDefined();
      }
    });
  });

  describe("a chart's rows on the page", () => {
    it("shows the chart's rows to the token's user only (§2.4 properties, row-level security)", async () => {
      const a = await world();
      for (const region of ['north', 'south']) {
        const { token: jwt } = await viewer(a, {}, { region });
        const { html } = await page(`/share/dashboard/${a.boardId}`, { jwt });
        expect(table(figure(html, CHART) ?? ''), region).toEqual([
          ['product', 'total'],
          ...totals(region),
        ]);
      }
    });

    it('filters by filter_{controlKey} with a JSON value and shows it set; ignores a value that is not JSON or a key no control has (decision hub.filters.values)', async () => {
      const a = await world();
      const { token: jwt } = await viewer(a, {});
      const rows = async (query: Record<string, string>) => {
        const { html } = await page(`/share/dashboard/${a.boardId}`, { jwt, ...query });
        return { rows: table(figure(html, CHART) ?? '').slice(1), html };
      };
      const online = await rows({ filter_channel: '"online"' });
      expect(online.rows).toEqual(totals('north', 'online'));
      expect(online.html).toMatch(/name="filter_channel" value="online" data-set="true"/);
      expect((await rows({ filter_channel: '"store"' })).rows).toEqual(totals('north', 'store'));
      for (const query of [{ filter_channel: 'online' }, { filter_region: '"south"' }, {}]) {
        const r = await rows(query);
        expect(r.rows, JSON.stringify(query)).toEqual(totals('north'));
        expect(r.html, JSON.stringify(query)).toMatch(
          /name="filter_channel" value=""(?! data-set)/,
        );
      }
    });

    it('heads an unloadable chart with its config fields, dimensions first, each once, no rows and a line why (decision hub.chart.unloadable)', async () => {
      const a = await world();
      const { token: jwt } = await viewer(a, {});
      const { html } = await page(`/share/dashboard/${a.boardId}`, { jwt });
      const fig = figure(html, UNLOADABLE) ?? '';
      expect(table(fig)).toEqual([['region', 'product', 'total']]);
      expect(fig).toMatch(/<p role="status">[^<]+<\/p>/);
      expect(figure(html, CHART)).not.toMatch(/role="status"/);
    });

    it('shows the same page with or without dbAuthToken, never its value (decision hub.query.db-auth-token-use)', async () => {
      const a = await world();
      const { token: jwt } = await viewer(a, {});
      const secret = 'db-secret-7c1e';
      const strip = (html: string) => html.replace(/nonce="[^"]*"/g, '');
      const without = await page(`/share/dashboard/${a.boardId}`, { jwt });
      const withIt = await page(`/share/dashboard/${a.boardId}`, { jwt, dbAuthToken: secret });
      expect(withIt.status).toBe(200);
      expect(withIt.html).not.toContain(secret);
      expect(strip(withIt.html)).toBe(strip(without.html));
    });
  });

  describe("what the role's §2.2 flags show", () => {
    const TOOLS = ['Add chart', 'Add filter', 'Create chart', 'Edit charts', 'Remove chart'];
    const drills = (html: string) => buttons(html).filter((b) => b.startsWith('Drill down into '));

    it('shows the editing tools a role grants, and none under readOnly', async () => {
      const a = await world();
      const editing = await viewer(a, { addChart: true, removeChart: true });
      const on = buttons(
        (await page(`/share/dashboard/${a.boardId}`, { jwt: editing.token })).html,
      );
      expect(on).toContain('Add chart');
      expect(on).toContain('Remove chart');
      const locked = await viewer(a, {
        readOnly: true,
        addChart: true,
        addFilter: true,
        createChart: true,
        editCharts: true,
        removeChart: true,
        drillDown: true,
      });
      const { html } = await page(`/share/dashboard/${a.boardId}`, { jwt: locked.token });
      for (const tool of TOOLS) expect(buttons(html), tool).not.toContain(tool);
      expect(html).not.toContain('aria-label="Editing tools"');
      expect(drills(html), 'readOnly turns off drill-down').toEqual([]);
    });

    it('hides the header and the download control for their flags, as for their parameters', async () => {
      const a = await world();
      const plain = await viewer(a, {});
      const base = await page(`/share/dashboard/${a.boardId}`, { jwt: plain.token });
      expect(base.html).toContain('<header role="banner">');
      expect(buttons(base.html)).toContain('Download PDF');
      const hidden = await viewer(a, { hideHeader: true, hideDownloadButton: true });
      const flagged = await page(`/share/dashboard/${a.boardId}`, { jwt: hidden.token });
      expect(flagged.html).not.toContain('<header');
      expect(buttons(flagged.html)).not.toContain('Download PDF');
      const asked = await page(`/share/dashboard/${a.boardId}`, {
        jwt: plain.token,
        hideHeader: 'true',
        hideDownloadButton: 'true',
      });
      expect(asked.html).not.toContain('<header');
      expect(buttons(asked.html)).not.toContain('Download PDF');
    });

    it("offers a drill-down per point of the chart's dimension under drillDown only", async () => {
      const a = await world();
      const drill = await viewer(a, { drillDown: true });
      const { html } = await page(`/share/dashboard/${a.boardId}`, { jwt: drill.token });
      expect(drills(figure(html, CHART) ?? '')).toEqual(
        totals('north').map(([p]) => `Drill down into ${p}`),
      );
      const plain = await viewer(a, {});
      expect(
        drills((await page(`/share/dashboard/${a.boardId}`, { jwt: plain.token })).html),
      ).toEqual([]);
    });
  });

  describe('the rows behind a point (§2.2 drillDown; decision hub.drill-down.rows)', () => {
    it("shows the table's rows behind the point, every column, for the user and the filters, on the shown dashboard", async () => {
      const a = await world();
      const { token: jwt } = await viewer(a, { drillDown: true });
      const anvil = (r: (typeof SALES)[number]) => r.region === 'north' && r.product === 'Anvil';
      const expected = (keep: (r: (typeof SALES)[number]) => boolean) => [
        ['region', 'product', 'channel', 'amount'],
        ...SALES.filter(keep).map((r) => [r.region, r.product, r.channel, String(r.amount)]),
      ];
      for (const path of [`/share/dashboard/${a.boardId}`, `/share/application/${a.workspaceId}`]) {
        const { html } = await page(path, {
          jwt,
          drillChart: a.chartId,
          drillValue: '"Anvil"',
        });
        const region = drillRegion(shownSection(html), 'Anvil');
        expect(region, path).toBeDefined();
        const rows = table(region!);
        expect([rows[0], ...rows.slice(1).sort()], path).toEqual(expected(anvil));
      }
      const filtered = await page(`/share/dashboard/${a.boardId}`, {
        jwt,
        drillChart: a.chartId.toUpperCase(),
        drillValue: '"Anvil"',
        filter_channel: '"store"',
      });
      expect(table(drillRegion(filtered.html, 'Anvil') ?? '')).toEqual(
        expected((r) => anvil(r) && r.channel === 'store'),
      );
    });

    it('shows nothing behind a point to a token without drillDown, under readOnly, or for another chart', async () => {
      const a = await world();
      const query = { drillChart: a.chartId, drillValue: '"Anvil"' };
      for (const permissions of [{}, { drillDown: true, readOnly: true }]) {
        const { token: jwt } = await viewer(a, permissions);
        const { status, html } = await page(`/share/dashboard/${a.boardId}`, { jwt, ...query });
        expect(status).toBe(200);
        expect(drillRegion(html, 'Anvil'), JSON.stringify(permissions)).toBeUndefined();
        expect(html).not.toContain('aria-label="Rows behind ');
      }
      const { token: jwt } = await viewer(a, { drillDown: true });
      const other = await page(`/share/dashboard/${a.boardId}`, {
        jwt,
        drillChart: NOBODY,
        drillValue: '"Anvil"',
      });
      expect(other.html).not.toContain('aria-label="Rows behind ');
    });
  });

  describe('what a page says of its application and charts', () => {
    it('names the application in the header of both pages, and opens the dashboard page on the very dashboard asked for', async () => {
      const a = await world();
      const { token: jwt } = await viewer(a, {});
      for (const path of [
        `/share/dashboard/${a.boardId}`,
        `/share/dashboard/${a.primaryId}`,
        `/share/application/${a.workspaceId}`,
      ]) {
        const { html } = await page(path, { jwt });
        expect(html, path).toContain('<header role="banner"><h1>Sales</h1>');
      }
      // §4.17: the primary dashboard has no chart; its page still shows it, not the Board.
      const primary = await page(`/share/dashboard/${a.primaryId}`, { jwt });
      expect(sections(primary.html).shown).toEqual([a.primaryId]);
    });

    it("names each chart by its config's title, else its name, and draws the bars of its measure under its type", async () => {
      const a = await account();
      const { token: jwt } = await viewer(a, {});
      const field = (f: string) => ({ name: f, field: f, label: f, format: '' });
      const drawn = { dimensions: [field('product')], measures: [field('total')] };
      const charts: [string, Record<string, unknown> | undefined][] = [
        ['Chart name', { title: 'Shown title', type: 'line', ...drawn, sqlOverride: CHART_SQL }],
        ['Untitled chart', { type: 'bar', ...drawn, sqlOverride: CHART_SQL }],
        ['Empty title', { title: '', type: 'bar', ...drawn, sqlOverride: CHART_SQL }],
        ['Untyped', { title: 'Untyped', ...drawn, sqlOverride: CHART_SQL }],
        ['Bare', undefined],
        ['No fields', { title: 'No fields', dimensions: [], measures: [] }],
      ];
      for (const [name, chartConfig] of charts)
        await hook(`/accounts/${a.org}/dashboards/${a.boardId}/charts`, {
          name,
          ...(chartConfig === undefined ? {} : { chartConfig }),
        });
      const { status, html } = await page(`/share/dashboard/${a.boardId}`, { jwt });
      expect(status).toBe(200);
      for (const title of ['Shown title', 'Untitled chart', 'Empty title', 'Untyped', 'Bare'])
        expect(figure(html, title), title).toBeDefined();
      expect(figure(html, 'No fields')).toBeDefined();
      expect(figure(html, 'Chart name')).toBeUndefined();
      expect(html).not.toContain('aria-label=""');
      // The bars: an image named by the chart's title and type, one bar per row.
      const image = (title: string) =>
        /<svg role="img" aria-label="([^"]*)"/.exec(figure(html, title) ?? '')?.[1];
      expect(image('Shown title')).toBe('Shown title (line chart)');
      expect(image('Untitled chart')).toBe('Untitled chart (bar chart)');
      expect(image('Untyped')).toMatch(/^Untyped \(/);
      expect(image('Untyped')).not.toContain('undefined');
      expect(image('Bare')).toBeUndefined();
    });
  });

  describe('drilling by address alone (decision hub.drill-down.rows)', () => {
    it('keeps the application page on its primary dashboard when the token may not drill, or the chart has no dimension', async () => {
      const a = await account();
      await hook(`/accounts/${a.org}/dashboards/${a.boardId}/charts`, { name: 'Bare' });
      const { html: before } = await page(`/share/application/${a.workspaceId}`, {
        jwt: (await viewer(a, { drillDown: true })).token,
      });
      const bare = /aria-label="Bare" data-chart-id="([^"]+)"/.exec(before)?.[1] ?? '';
      expect(bare).not.toBe('');
      const cases = [
        [{}, a.chartId],
        [{ drillDown: true, readOnly: true }, a.chartId],
        [{ drillDown: true }, bare],
      ] as const;
      for (const [permissions, drillChart] of cases) {
        const { token: jwt } = await viewer(a, permissions);
        const res = await page(`/share/application/${a.workspaceId}`, {
          jwt,
          drillChart,
          drillValue: '"Anvil"',
        });
        const what = `${JSON.stringify(permissions)} ${drillChart}`;
        expect(res.status, what).toBe(200);
        expect(sections(res.html).shown, what).toEqual([a.primaryId]);
        expect(res.html, what).not.toContain('aria-label="Rows behind ');
      }
    });
  });

  describe('after finalize (§9; decision hub.v1-component.page)', () => {
    const auth = (token: string) => ({ authorization: `Bearer ${token}` });
    async function v1(path: string, token: string, body: unknown) {
      const res = await fetch(`${ref.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...auth(token) },
        body: JSON.stringify(body),
      });
      expect(res.status, `${path}: ${await res.clone().text()}`).toBe(200);
      return ((await res.json()) as { data: Record<string, unknown> }).data;
    }
    const tenant = async (a: Account, customer: string) =>
      String(
        (
          await api('/v1/api/tenant/register-tenant', {
            apiKey: a.key,
            name: customer,
            tenantColumns: { customer_id: customer },
            permissions: { addDashboard: true, removeChart: true },
          })
        )['token'],
      );

    /**
     * A workspace whose primary dashboard holds a chart, with a dashboard listed before it (one
     * instant, a smaller id); tenant one made its copy of the primary without the chart and a
     * dashboard of its own; then the account is finalized.
     */
    async function migrated() {
      const made = await hook('/accounts', {});
      const org = String(made['organizationId']);
      const key = String(made['orgBoundKey']);
      await hook(`/accounts/${org}/clock/freeze`, {});
      const { projectId } = await hook(`/accounts/${org}/projects`, {});
      const ws = await hook(`/accounts/${org}/workspaces`, {
        name: 'Sales',
        dashboardName: 'Overview',
      });
      const workspaceId = String(ws['workspaceId']);
      const primaryId = String(ws['dashboardId']);
      const chart = await hook(`/accounts/${org}/dashboards/${primaryId}/charts`, {
        name: 'Overview chart',
      });
      let earlier = false;
      for (let i = 0; i < 64 && !earlier; i++) {
        const d = await hook(`/accounts/${org}/workspaces/${workspaceId}/dashboards`, {
          name: 'Extra',
        });
        earlier = String(d['dashboardId']).localeCompare(primaryId) < 0;
      }
      expect(earlier, 'a dashboard listed before the primary').toBe(true);
      const a = { org, key, projectId: String(projectId), workspaceId } as Account;
      await v1('/v1/api/dashboard/remove-charts', await tenant(a, 'one'), {
        dashboardId: primaryId,
        chartIds: [chart['chartId']],
      });
      await v1('/v1/api/dashboard/create', await tenant(a, 'one'), { workspaceId, name: 'Mine' });
      await tenant(a, 'two');
      const done = await hook(`/accounts/${org}/migration/finalize`, {});
      const apps = done['applications'] as { applicationId: string; legacyWorkspaceId: string }[];
      const applicationId = apps.find((x) => x.legacyWorkspaceId === workspaceId)?.applicationId;
      return { a, primaryId, applicationId: String(applicationId) };
    }

    /** The names of the page's dashboards (each once), the shown one, and whether it holds the chart. */
    function seenOn(html: string) {
      return {
        names: [
          ...new Set([...html.matchAll(/<section [^>]*><h2>([^<]*)<\/h2>/g)].map((m) => m[1]!)),
        ].sort(),
        shown: /<h2>([^<]*)<\/h2>/.exec(shownSection(html))?.[1],
        chart: figure(shownSection(html), 'Overview chart') !== undefined,
      };
    }

    it("shows the v1 component as each user saw it at finalize: the tenant's copy and own dashboard to the user the tenant became", async () => {
      const { a, primaryId } = await migrated();
      const one = await tenant(a, 'one');
      const two = await tenant(a, 'two');
      const plain = (await viewer(a, {})).token;
      for (const path of [
        `/share/application/${a.workspaceId}`,
        `/share/application/${a.workspaceId.toUpperCase()}`,
      ]) {
        const res = await page(path, { jwt: one });
        expect(res.status, path).toBe(200);
        const seen = seenOn(res.html);
        expect(seen.names, path).toEqual(['Extra', 'Mine', 'Overview']);
        expect({ shown: seen.shown, chart: seen.chart }, path).toEqual({
          shown: 'Overview',
          chart: false,
        });
        expect(res.html).toContain('<header role="banner"><h1>Sales</h1>');
      }
      for (const jwt of [two, plain]) {
        const res = await page(`/share/application/${a.workspaceId}`, { jwt });
        expect(res.status).toBe(200);
        expect(seenOn(res.html)).toEqual({
          names: expect.not.arrayContaining(['Mine']) as unknown,
          shown: 'Overview',
          chart: true,
        });
      }
      const copy = await page(`/share/dashboard/${primaryId}`, { jwt: one });
      expect({ shown: seenOn(copy.html).shown, chart: seenOn(copy.html).chart }).toEqual({
        shown: 'Overview',
        chart: false,
      });
    });

    it('shows the live application by its v2 id, with the dashboards the tenant made now in its user’s space, and a v1 dashboardId naming its v2 dashboard', async () => {
      const { a, primaryId, applicationId } = await migrated();
      const one = await tenant(a, 'one');
      const live = await page(`/share/application/${applicationId}`, { jwt: one });
      expect(live.status).toBe(200);
      const seen = seenOn(live.html);
      expect(seen.names).toEqual(['Extra', 'Mine', 'Overview']);
      expect({ shown: seen.shown, chart: seen.chart }).toEqual({ shown: 'Overview', chart: false });
      const plain = (await viewer(a, {})).token;
      const byV1 = await page(`/share/application/${applicationId}`, {
        jwt: plain,
        dashboardId: primaryId,
      });
      expect(byV1.status).toBe(200);
      expect(seenOn(byV1.html)).toEqual({ names: ['Overview'], shown: 'Overview', chart: true });
    });
  });
});
