/**
 * A smoke run of blind-1 over HTTP: npx tsx candidates/blind-1/smoke.ts
 * Starts the server on free ports, walks identity, tokens, v1 dashboards, the migration, v2,
 * a chat stream and (with Chromium installed) a hub page, and prints one line per check.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { chromium as playwright } from 'playwright-core';

interface Urls {
  url: string;
  hubUrl: string;
  hooksUrl: string;
}
type Json = Record<string, unknown>;

let failures = 0;
function check(name: string, ok: boolean, extra: unknown = ''): void {
  if (!ok) failures++;
  console.log(
    `${ok ? 'ok  ' : 'FAIL'} ${name}${ok ? '' : ` ${JSON.stringify(extra).slice(0, 400)}`}`,
  );
}

async function call(
  method: string,
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const res = await fetch(url, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  let json: Json = {};
  try {
    json = JSON.parse(text) as Json;
  } catch {
    json = { text };
  }
  return { status: res.status, json, data: (json.data ?? {}) as Json, text };
}

async function start(): Promise<{ urls: Urls; stop: () => void }> {
  const child = spawn(
    'npx',
    ['tsx', 'candidates/blind-1/server.ts', '--port', '0', '--hub-port', '0'],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const line = await new Promise<string>((resolve) => {
    createInterface({ input: child.stdout }).once('line', resolve);
  });
  return { urls: JSON.parse(line) as Urls, stop: () => child.kill('SIGTERM') };
}

async function main(): Promise<void> {
  const { urls, stop } = await start();
  const H = urls.hooksUrl;
  const B = urls.url;
  try {
    const acct = (await call('POST', `${H}/accounts`, { name: 'Smoke' })).data;
    const org = acct.organizationId as string;
    const key = acct.orgBoundKey as string;
    const userKey = acct.userScopedKey as string;
    const project = (await call('POST', `${H}/accounts/${org}/projects`, { name: 'P' })).data
      .projectId as string;
    const role = await call('POST', `${H}/accounts/${org}/projects/${project}/roles`, {
      name: 'editor',
      permissions: { addChart: true },
    });
    check('role hook 201', role.status === 201, role.json);
    const roleId = role.data.id as string;

    const roles = await call(
      'GET',
      `${B}/v1/api/projects/${project}/user-roles?apiKey=${userKey}&organizationId=${org}`,
    );
    check(
      'list roles with user-scoped key',
      roles.status === 200 && (roles.data.userRoles as unknown[]).length === 1,
      roles.json,
    );
    const noOrg = await call('GET', `${B}/v1/api/projects/${project}/user-roles?apiKey=${userKey}`);
    check('user-scoped key without organizationId refused', noOrg.status === 401, noOrg.json);

    const reg = await call('POST', `${B}/v1/api/projects/register-organization`, {
      apiKey: key,
      projectId: project,
      name: 'Tenant A',
      externalId: 'ext-a',
      properties: { tenant: 'a' },
    });
    check('register organization', reg.status === 200 && reg.data.externalId === 'ext-a', reg.json);
    const user = await call('POST', `${B}/v1/api/projects/register-user`, {
      apiKey: key,
      projectId: project,
      name: 'Ann',
      properties: { tenant: 'a' },
      userRoleId: roleId,
      projectOrganizationId: 'ext-a',
    });
    check(
      'register user via externalId',
      user.status === 200 && typeof user.data.userId === 'string',
      user.json,
    );
    const userId = user.data.userId as string;
    const tok = await call('POST', `${B}/v1/api/projects/user-token`, {
      apiKey: key,
      userId,
      expiration: '5m',
    });
    check('user token', tok.status === 200 && typeof tok.data.token === 'string', tok.json);
    const token = tok.data.token as string;
    const badExp = await call('POST', `${B}/v1/api/projects/user-token`, {
      apiKey: key,
      userId,
      expiration: '3m',
    });
    check(
      'bad expiration 400',
      badExp.status === 400 && (badExp.json.status as string) === 'error',
      badExp.json,
    );
    const upd = await call('PUT', `${B}/v1/api/projects/${project}/user-roles/${roleId}`, {
      apiKey: key,
      permissions: { readOnly: true, addChart: true },
    });
    check(
      'update role',
      upd.status === 200 && (upd.data.permissions as Json).readOnly === true,
      upd.json,
    );
    const badPerm = await call('PUT', `${B}/v1/api/projects/${project}/user-roles/${roleId}`, {
      apiKey: key,
      permissions: { fly: true },
    });
    check('unknown permission 400', badPerm.status === 400, badPerm.json);
    await call('PUT', `${B}/v1/api/projects/${project}/user-roles/${roleId}`, {
      apiKey: key,
      permissions: { addChart: true, removeChart: true },
    });
    const embed = await call('POST', `${B}/v1/api/projects/embed-token`, {
      apiKey: key,
      projectId: project,
      organization: { externalId: 'ext-b', displayName: 'B' },
      user: { displayName: 'Bob', properties: { tenant: 'b' }, userRoleId: null },
    });
    check(
      'embed token',
      embed.status === 200 && typeof embed.data.accessToken === 'string',
      embed.json,
    );

    // v1 world
    const ws = (
      await call('POST', `${H}/accounts/${org}/workspaces`, { name: 'Sales', projectId: project })
    ).data;
    const dash = ws.dashboardId as string;
    const chart = (
      await call('POST', `${H}/accounts/${org}/dashboards/${dash}/charts`, { name: 'C1' })
    ).data.chartId as string;
    const clone = await call(
      'POST',
      `${B}/v1/api/dashboard/clone`,
      { sourceDashboardId: dash },
      { authorization: `Bearer ${key}` },
    );
    check('clone', clone.status === 200 && clone.data.name === 'Sales (Copy)', clone.json);
    const layout = await call(
      'GET',
      `${H}/accounts/${org}/dashboards/${clone.data.dashboardId as string}/charts`,
    );
    check(
      'clone deep-copies charts',
      (layout.data.chartIds as string[]).length === 1 &&
        (layout.data.chartIds as string[])[0] !== chart,
      layout.json,
    );
    const tenant = await call('POST', `${B}/v1/api/tenant/register-tenant`, {
      apiKey: key,
      tenantName: 'T1',
      splitColumns: { tenant: 'a' },
      permissions: { removeChart: true, canDuplicateDashboard: false },
    });
    check(
      'register tenant',
      tenant.status === 200 && typeof tenant.data.token === 'string',
      tenant.json,
    );
    const tjwt = tenant.data.token as string;
    const rm = await call(
      'POST',
      `${B}/v1/api/dashboard/remove-charts`,
      { dashboardId: dash, chartIds: [chart] },
      { authorization: `Bearer ${tjwt}` },
    );
    check(
      'tenant remove lands on a copy',
      rm.status === 200 && rm.data.dashboardId !== dash,
      rm.json,
    );
    const shared = await call('GET', `${H}/accounts/${org}/dashboards/${dash}/charts`);
    check(
      'shared dashboard unchanged',
      (shared.data.chartIds as string[]).length === 1,
      shared.json,
    );
    const tlist = await call(
      'GET',
      `${B}/v1/api/workspaces/${ws.workspaceId as string}/dashboards`,
      undefined,
      {
        authorization: `Bearer ${tjwt}`,
      },
    );
    check(
      'tenant list: its copy in place of the shared one',
      (tlist.data.dashboards as Json[]).length === 2 &&
        (tlist.data.dashboards as Json[])[0]?.id === rm.data.dashboardId,
      tlist.json,
    );
    const clone2 = await call(
      'POST',
      `${B}/v1/api/dashboard/clone`,
      { sourceDashboardId: dash },
      { authorization: `Bearer ${tjwt}` },
    );
    check('tenant without canDuplicateDashboard refused', clone2.status === 403, clone2.json);
    const lw = await call('GET', `${B}/v1/api/dashboard/list-workspaces?apiKey=${key}`);
    check(
      'list workspaces',
      lw.status === 200 && (lw.data.workspaces as unknown[]).length === 1,
      lw.json,
    );
    const save = await call(
      'POST',
      `${B}/v1/api/chart/save-from-chat`,
      {
        chartConfig: {
          title: 'X',
          sqlOverride: 'SELECT region, SUM(amount) AS s FROM sales GROUP BY region',
        },
      },
      { authorization: `Bearer ${token}` },
    );
    check(
      'save from chat',
      save.status === 200 && typeof save.data.chartId === 'string',
      save.json,
    );
    const data = await call(
      'POST',
      `${H}/accounts/${org}/charts/${save.data.chartId as string}/data`,
      { token },
    );
    check(
      'chart data',
      data.status === 200 && (data.data.rows as unknown[]).length === 5,
      data.json,
    );

    // migration
    const fin = await call('POST', `${H}/accounts/${org}/migration/finalize`, {});
    check(
      'finalize',
      fin.status === 200 && (fin.data.applications as unknown[]).length === 1,
      fin.json,
    );
    const after = await call(
      'POST',
      `${B}/v1/api/dashboard/clone`,
      { sourceDashboardId: dash },
      { authorization: key },
    );
    check(
      'v1 write after finalize: 410',
      after.status === 410 && (after.json.error as Json).code === 'MIGRATED_TO_V2',
      after.json,
    );
    const apps = await call('GET', `${B}/v2/api/applications`, undefined, {
      authorization: `Bearer ${token}`,
    });
    check(
      'v2 applications',
      apps.status === 200 && (apps.data.applications as unknown[]).length === 1,
      apps.json,
    );
    const app = (apps.data.applications as Json[])[0] as Json;
    const appId = app.applicationId as string;
    const look = await call('GET', `${B}/v2/api/lookup/dashboards/${dash}`, undefined, {
      authorization: `Bearer ${key}`,
    });
    check(
      'look-up of a v1 id',
      look.status === 200 && look.data.applicationId === appId,
      look.json,
    );
    const tpl = look.data.dashboardId as string;
    const edit = await call(
      'POST',
      `${B}/v2/api/applications/${appId}/dashboards/${tpl}/charts`,
      { charts: [save.data.chartId] },
      { authorization: `Bearer ${token}` },
    );
    check(
      'user edit of a template: 409',
      edit.status === 409 && (edit.json.error as Json).code === 'SHARED_DASHBOARD_READ_ONLY',
      edit.json,
    );
    const tv2 = await call('GET', `${B}/v2/api/applications`, undefined, {
      authorization: `Bearer ${tjwt}`,
    });
    check('old tenant token on v2', tv2.status === 200, tv2.json);
    const tnew = await call('POST', `${B}/v1/api/tenant/register-tenant`, {
      apiKey: key,
      splitColumns: { tenant: 'a' },
    });
    check('register-tenant after finalize', tnew.status === 200, tnew.json);

    // chat
    const conn = await call('POST', `${H}/accounts/${org}/connections`, {
      table: {
        name: 'deals',
        columns: [
          { name: 'tenant', type: 'text' },
          { name: 'region', type: 'text' },
          { name: 'product', type: 'text' },
          { name: 'amount', type: 'number' },
          { name: 'order_date', type: 'date' },
        ],
        rows: [
          { tenant: 'a', region: 'North', product: 'P1', amount: 10, order_date: '2024-01-02' },
          { tenant: 'a', region: 'South', product: 'P2', amount: 5, order_date: '2024-02-02' },
          { tenant: 'b', region: 'North', product: 'P1', amount: 99, order_date: '2024-02-03' },
        ],
      },
      rowFilters: [{ column: 'tenant', property: 'tenant' }],
    });
    check('connection', conn.status === 201, conn.json);
    const agent = (
      await call('POST', `${H}/accounts/${org}/projects/${project}/agents`, {
        connectionId: conn.data.connectionId,
      })
    ).data.agentId as string;
    const chat = await fetch(`${B}/v1/api/project-agents/${agent}/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({
        messages: [{ role: 'user', content: 'Total amount for each region' }],
        thread_id: 't1',
        payload: { agent_id: agent },
      }),
    });
    const stream = await chat.text();
    const events = stream
      .split('\n')
      .filter((l) => l.startsWith('data: '))
      .map((l) => JSON.parse(l.slice(6)) as Json);
    const chartEvent = events.find(
      (e) => e.type === 'tool-result' && (e.payload as Json).toolName === 'generateChart',
    );
    const result = (chartEvent?.payload as Json | undefined)?.result as Json | undefined;
    check('chat stream has a chart', chat.status === 200 && !!result, stream.slice(0, 300));
    check(
      'row-level security in chat',
      JSON.stringify(result?.chartData) ===
        JSON.stringify([
          { region: 'North', total_amount: 10 },
          { region: 'South', total_amount: 5 },
        ]),
      result?.chartData,
    );
    const follow = await fetch(`${B}/v1/api/project-agents/${agent}/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({
        messages: [{ role: 'user', content: 'Now show that as a pie chart' }],
        thread_id: 't1',
        payload: { agent_id: agent },
      }),
    });
    const ftext = await follow.text();
    check(
      'follow-up keeps the thread',
      ftext.includes('"type":"pie"') && ftext.includes('total_amount'),
      ftext.slice(0, 300),
    );

    // hub
    const chromium = ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((p) =>
      existsSync(p),
    );
    const page = `${urls.hubUrl}/share/dashboard/${tpl}?jwt=${token}`;
    const html = await call('GET', page);
    check('hub page renders', html.text.includes('role="figure"'), html.text.slice(0, 200));
    const bad = await call('GET', `${urls.hubUrl}/share/dashboard/${tpl}?jwt=nope`);
    check(
      'hub bad token text',
      bad.text.includes('Invalid or missing token.'),
      bad.text.slice(0, 200),
    );
    // §2.3, §2.4: the viewer's and their organization's display names, inert, on every page
    const evilOrg = `Org "<b>" & <script>alert(1)</script>`;
    const evilUser = `<img src=x onerror=alert(1)> 'Zoë' <a href="javascript:alert(1)">x</a>`;
    await call('POST', `${B}/v1/api/projects/register-organization`, {
      apiKey: key,
      projectId: project,
      name: evilOrg,
      externalId: 'ext-evil',
    });
    const bare = await call('POST', `${H}/accounts/${org}/projects/${project}/roles`, {
      name: 'bare',
      permissions: { hideHeader: true, disableTabs: true },
    });
    const evil = await call('POST', `${B}/v1/api/projects/register-user`, {
      apiKey: key,
      projectId: project,
      name: evilUser,
      userRoleId: bare.data.id,
      projectOrganizationId: 'ext-evil',
    });
    const evilToken = (
      await call('POST', `${B}/v1/api/projects/user-token`, {
        apiKey: key,
        userId: evil.data.userId,
        expiration: '5m',
      })
    ).data.token as string;
    const escaped = (t: string) =>
      t.replace(
        /[&<>"']/g,
        (c) =>
          ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
      );
    const namePages = [
      `${urls.hubUrl}/share/dashboard/${tpl}?jwt=${evilToken}`,
      `${urls.hubUrl}/share/application/${appId}?jwt=${evilToken}`,
      `${urls.hubUrl}/share/application/${appId}?jwt=${evilToken}&view=${tpl}`,
      `${urls.hubUrl}/share/application/${appId}?jwt=${evilToken}&dashboardId=${tpl}`,
    ];
    for (const url of namePages) {
      const r = await call('GET', url);
      check(
        `hub names as text (${url.slice(urls.hubUrl.length).split('?')[0] ?? ''})`,
        r.status === 200 &&
          r.text.includes(escaped(evilUser)) &&
          r.text.includes(escaped(evilOrg)) &&
          !r.text.includes('<script>alert') &&
          !r.text.includes('<img src=x') &&
          !r.text.includes('role="banner"'),
        r.text.slice(0, 400),
      );
    }
    if (chromium) {
      const dom = execFileSync(
        chromium,
        ['--headless', '--no-sandbox', '--disable-gpu', '--dump-dom', page],
        { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 30_000 },
      );
      check(
        'hub page in chromium',
        dom.includes('aria-label="Editing tools"') && dom.includes('<table'),
        dom.slice(0, 300),
      );
      // an embedder on a third origin: autoHeight and embed:params as the parent sees them
      const ws2 = (
        await call('POST', `${H}/accounts/${org}/workspaces`, {
          name: 'Embedded',
          projectId: project,
        })
      ).data;
      const d2 = (
        await call(
          'POST',
          `${H}/accounts/${org}/workspaces/${ws2.workspaceId as string}/dashboards`,
          {
            name: 'Regions',
            controls: [{ controlKey: 'region', field: 'region', label: 'Region' }],
          },
        )
      ).data.dashboardId as string;
      await call('POST', `${H}/accounts/${org}/dashboards/${d2}/charts`, {
        name: 'By region',
        chartConfig: {
          title: 'By region',
          sqlOverride: 'SELECT region, SUM(amount) AS total FROM deals GROUP BY region',
        },
      });
      const parent = createServer((req, res) => {
        const src = decodeURIComponent((req.url ?? '').replace(/^\/\?src=/, ''));
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(
          `<!doctype html><script>window.msgs=[];addEventListener('message',e=>msgs.push(e.data));</script><iframe src="${src}" width="800" height="300"></iframe>`,
        );
      });
      await new Promise<void>((r) => parent.listen(0, '127.0.0.1', r));
      const origin = `http://127.0.0.1:${(parent.address() as AddressInfo).port}`;
      const browser = await playwright.launch({ executablePath: chromium, args: ['--no-sandbox'] });
      try {
        const tab = await browser.newPage();
        const src = `${urls.hubUrl}/share/application/${ws2.workspaceId as string}?jwt=${token}&dashboardId=${d2}&autoHeight=true&parentOrigin=${encodeURIComponent(origin)}&filter_region=${encodeURIComponent('"North"')}`;
        await tab.goto(`${origin}/?src=${encodeURIComponent(src)}`);
        const frame = tab.frameLocator('iframe');
        await frame.getByRole('figure', { name: 'By region' }).getByRole('table').waitFor();
        const cells = await frame
          .getByRole('figure', { name: 'By region' })
          .getByRole('cell')
          .allTextContents();
        check(
          'hub filter_region applied under row-level security',
          JSON.stringify(cells) === '["North","10"]',
          cells,
        );
        check(
          'no navigation with dashboardId',
          (await frame.getByRole('navigation').count()) === 0,
        );
        await frame.getByRole('textbox', { name: 'Region' }).fill('South');
        await frame.getByRole('textbox', { name: 'Region' }).press('Tab');
        await tab.waitForTimeout(800);
        const msgs = await tab.evaluate<Json[]>('window.msgs');
        check(
          'height message',
          msgs.some((m) => m.type === 'embed:resize' && typeof m.contentHeight === 'number'),
          msgs,
        );
        check(
          'embed:params message',
          msgs.some(
            (m) =>
              m.type === 'embed:params' &&
              (m.params as Json | undefined)?.filter_region === '"South"',
          ),
          msgs,
        );
        const app = `${urls.hubUrl}/share/application/${ws2.workspaceId as string}?jwt=${token}`;
        await tab.goto(app);
        check(
          'application page has navigation',
          (await tab.getByRole('navigation', { name: 'Dashboards' }).getByRole('link').count()) ===
            2,
        );
        await tab.goto(
          `${urls.hubUrl}/share/dashboard/00000000-0000-0000-0000-000000000000?jwt=${token}`,
        );
        check('not-found text', (await tab.getByText('Dashboard not found.').count()) === 1);
        let dialogs = 0;
        tab.on('dialog', (d) => {
          dialogs++;
          void d.dismiss();
        });
        for (const url of namePages) {
          await tab.goto(url);
          check(
            'hub names shown in chromium',
            (await tab.getByText(evilUser, { exact: true }).count()) === 1 &&
              (await tab.getByText(evilOrg, { exact: true }).count()) === 1 &&
              (await tab.locator('img, b').count()) === 0,
          );
        }
        check('hub names stay inert', dialogs === 0);
      } finally {
        await browser.close();
        parent.close();
      }
    } else console.log('skip chromium (not installed)');
  } finally {
    stop();
  }
  console.log(failures === 0 ? 'smoke: all checks passed' : `smoke: ${failures} check(s) failed`);
  process.exitCode = failures === 0 ? 0 : 1;
}

void main();
