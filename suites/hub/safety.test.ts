import { expect } from 'vitest';
import { openHub } from '../harness/browser.ts';
import { conformance, probe } from '../harness/conformance.ts';
import {
  dashboardPath,
  dashboardShown,
  expectCount,
  hubWorld,
  needs,
  parts,
  tokenOf,
  HUB_TIMEOUT,
} from './kit.ts';
import { rolePath } from '../harness/paths.ts';

// §4.17 (issue 9 part 4): every name shown is text, never markup; §3: a role update reaches
// the page with the next token; the theme is not a query parameter; dbAuthToken.

const NAME = '<img src=x onerror=alert(1)>';
const TITLE = '<script>alert(2)</script> revenue';
const LABEL = '<b onmouseover=alert(3)>Channel</b>';

conformance(
  ['hub.security.names-are-text', 'hub.dashboard.page'],
  'a dashboard called <img src=x onerror=alert(1)> shows as that text; no markup of a name is built and no script runs',
  async (t) => {
    const w = await hubWorld(t, { boardName: NAME, chartTitle: TITLE, controlLabel: LABEL });
    const view = await openHub(t, dashboardPath(w.board.dashboardId, { jwt: w.viewer.token }));
    await expectCount(
      view.frame.getByText(NAME, { exact: true }).first(),
      1,
      'the name is shown as text',
    );
    await expectCount(view.thing('chart', { title: TITLE }), 1, 'the chart title is shown as text');
    await expectCount(
      view.frame.getByText(LABEL, { exact: true }).first(),
      1,
      'the filter label is shown as text',
    );
    await expectCount(
      // The elements the names would make if read as markup (a page may have images of its own).
      view.frame.locator(
        'img[src="x"], [onerror="alert(1)"], [onmouseover="alert(3)"], script:text("alert(2)")',
      ),
      0,
      'no element was made of a name',
    );
    expect(view.dialogs, 'no script of a name ran').toEqual([]);
  },
  { timeout: HUB_TIMEOUT, parts, needs },
);

conformance(
  ['states.role.update-next-token', 'permissions.ai-insight.effect'],
  "a role update shows on the page of the user's next token",
  async (t) => {
    const w = await hubWorld(t, { permissions: {} });
    const before = await openHub(t, dashboardPath(w.board.dashboardId, { jwt: w.viewer.token }));
    await dashboardShown(before, w);
    await expectCount(before.thing('aiInsight'), 0, 'the role has no aiInsight yet');
    await before.close();
    const res = await t.http.put(rolePath(w, w.viewer.roleId ?? ''), {
      ...w.creds(),
      permissions: { aiInsight: true },
    });
    expect(res.status, `the role update succeeds: ${res.text.slice(0, 200)}`).toBe(200);
    const token = await tokenOf(t, w, w.viewer.userId);
    const after = await openHub(t, dashboardPath(w.board.dashboardId, { jwt: token }));
    await expectCount(after.thing('aiInsight'), 1, 'the next token brings aiInsight to the page');
  },
  { timeout: HUB_TIMEOUT, parts, needs },
);

conformance(
  ['hub.theme.not-by-parameter'],
  'theme-like query parameters change nothing on the page',
  async (t) => {
    const w = await hubWorld(t);
    const look = async (query: Record<string, string>) => {
      const view = await openHub(
        t,
        dashboardPath(w.board.dashboardId, { jwt: w.viewer.token, ...query }),
      );
      const header = view.thing('header');
      await expectCount(header, 1, 'the page has its header');
      const page = await view.frame.evaluate(
        `(() => { const b = document.body; return JSON.stringify([getComputedStyle(b).backgroundColor, getComputedStyle(b).color]); })()`,
      );
      const banner = await header.evaluate(
        '(h) => JSON.stringify([getComputedStyle(h).backgroundColor, getComputedStyle(h).color])',
      );
      await view.close();
      return `${String(page)} ${String(banner)}`;
    };
    const plain = await look({});
    const themed = await look({
      theme: 'dark',
      primaryColor: '#ff0000',
      backgroundColor: '#000000',
      color: 'red',
    });
    expect(themed, 'the colours are the hub settings, not the query').toBe(plain);
  },
  { timeout: HUB_TIMEOUT, parts, needs },
);

conformance(
  ['hub.query.db-auth-token'],
  'a page given a dbAuthToken beside its jwt opens the dashboard',
  async (t) => {
    const w = await hubWorld(t);
    const token = `db-${t.faker.string.alphanumeric(24)}`;
    const view = await openHub(
      t,
      dashboardPath(w.board.dashboardId, { jwt: w.viewer.token, dbAuthToken: token }),
    );
    await dashboardShown(view, w);
  },
  { timeout: HUB_TIMEOUT, parts, needs },
);

probe(
  ['hub.query.db-auth-token-use'],
  'a dbAuthToken is accepted, changes nothing shown and never appears on the page',
  async (t) => {
    const w = await hubWorld(t);
    const secret = `db-${t.faker.string.alphanumeric(24)}`;
    const view = await openHub(
      t,
      dashboardPath(w.board.dashboardId, { jwt: w.viewer.token, dbAuthToken: secret }),
    );
    const opened = (await view.thing('chart', { title: w.board.chartTitle }).count()) === 1;
    const html = String(await view.frame.evaluate('document.documentElement.outerHTML'));
    const leaked = html.includes(secret);
    t.observe(
      `${opened ? 'the dashboard opens' : 'the dashboard does not open'}; ${leaked ? 'the value is in the page' : 'the value is not in the page'}`,
      opened && !leaked,
    );
  },
  { timeout: HUB_TIMEOUT, parts, needs },
);
