import fc from 'fast-check';
import { expectedStrings } from '../../fixtures/oracles/index.ts';
import { openHub } from '../harness/browser.ts';
import { conformance, type Conformance } from '../harness/conformance.ts';
import {
  HUB_TIMEOUT,
  dashboardPath,
  dashboardShown,
  expectCount,
  hubWorld,
  needs,
  parts,
  tokenOf,
  viewer,
  type HubWorld,
} from './kit.ts';
import { budgetLine, modelRuns, type Budget, type ModelCommand } from '../harness/model-run.ts';

// Model-based (STYLE 7, issue 34) on the shared runner, for the embedded pages (§4.17). Pages
// are driven in a browser and cost a second or more each, so this area has the smallest
// budget of all: one world, a few pages. The world is two accounts, each with a dashboard of
// one chart and two viewers (project users in organizations of their own) with two tokens
// each, and the model is what §4.17 fixes of the dashboard page for a jwt and an id: the
// dashboard for a token of its own account, 'Dashboard not found.' for a token that may not
// see it (another account's dashboard), 'Invalid or missing token.' for no jwt or one that
// is no token. New tokens are issued between pages: any token of a viewer opens the same.

const BUDGET: Budget = { runs: 1, commands: 4 };
const { dashboardNotFound, invalidToken } = expectedStrings.hub;

interface Account {
  readonly w: HubWorld;
  /** Per viewer, every token issued for it. */
  readonly tokens: string[][];
  readonly viewers: readonly string[];
}

interface Model {
  readonly accounts: readonly Account[];
}

interface Real {
  readonly t: Conformance;
}

type Jwt = 'token' | 'missing' | 'not-a-token';
type Cmd = ModelCommand<Model, Real>;
const labelOf = (a: number, v: number, k: number, b: number, jwt: Jwt) =>
  `page: /share/dashboard of account#${b}'s dashboard, jwt ${jwt === 'token' ? `token#${k} of account#${a}'s viewer#${v}` : jwt}`;
const accountAt = (m: Model, a: number) => m.accounts[a % m.accounts.length] as Account;

/** The dashboard page of account `b`'s dashboard, with a jwt of account `a`'s viewer. */
const pageCmd = (a: number, v: number, k: number, b: number, jwt: Jwt): Cmd => ({
  kind: 'look',
  label: labelOf(a, v, k, b, jwt),
  pre: () => true,
  look: async (m, { t }) => {
    const holder = accountAt(m, a);
    const board = accountAt(m, b).w;
    const tokens = holder.tokens[v % holder.tokens.length] ?? [];
    const token =
      jwt === 'missing'
        ? undefined
        : jwt === 'not-a-token'
          ? 'not-a-token'
          : tokens[k % tokens.length];
    const what = labelOf(a, v, k, b, jwt);
    const view = await openHub(t, dashboardPath(board.board.dashboardId, { jwt: token }));
    // What the model says the page shows, and the two texts it then must not.
    const shows = jwt !== 'token' ? invalidToken : a % 2 === b % 2 ? undefined : dashboardNotFound;
    if (shows === undefined) {
      await dashboardShown(view, board);
      for (const text of [invalidToken, dashboardNotFound])
        await expectCount(view.frame.getByText(text, { exact: true }), 0, `${what}: not '${text}'`);
    } else {
      await expectCount(
        view.frame.getByText(shows, { exact: true }).first(),
        1,
        `${what}: '${shows}'`,
      );
      const other = shows === invalidToken ? dashboardNotFound : invalidToken;
      await expectCount(view.frame.getByText(other, { exact: true }), 0, `${what}: not '${other}'`);
      await expectCount(
        view.frame.getByText(board.board.chartTitle, { exact: true }),
        0,
        `${what}: nothing of the dashboard`,
      );
    }
    await view.close();
  },
});

const tokenCmd = (a: number, v: number): Cmd => ({
  kind: 'world',
  label: `another token for account#${a}'s viewer#${v}`,
  pre: () => true,
  act: async (m, { t }) => {
    const acct = accountAt(m, a);
    const i = v % acct.viewers.length;
    acct.tokens[i]?.push(await tokenOf(t, acct.w, acct.viewers[i] ?? ''));
  },
});

async function accountWorld(t: Conformance): Promise<Account> {
  const w = await hubWorld(t);
  const second = await viewer(t, w, { addChart: true });
  const viewers = [w.viewer.userId, second.userId];
  const tokens = [
    [w.viewer.token, await tokenOf(t, w, w.viewer.userId)],
    [second.token, await tokenOf(t, w, second.userId)],
  ];
  return { w, tokens, viewers };
}

const account = fc.nat({ max: 1 });
const jwt = fc.constantFrom<Jwt>('token', 'token', 'missing', 'not-a-token');

conformance(
  [
    'hub.dashboard.page',
    'hub.query.jwt',
    'hub.dashboard.jwt-required',
    'hub.errors.not-found-text',
    'hub.errors.invalid-token-text',
  ],
  `model runs over the dashboard page: tokens and ids of two accounts (${budgetLine('hub', BUDGET)})`,
  async (t) => {
    await modelRuns<Model, Real>(t, {
      area: 'hub',
      budget: BUDGET,
      commands: [
        fc
          .tuple(account, fc.nat({ max: 1 }), fc.nat({ max: 3 }), account, jwt)
          .map(([a, v, k, b, j]) => pageCmd(a, v, k, b, j)),
        fc
          .tuple(account, fc.nat({ max: 1 }), fc.nat({ max: 3 }), account)
          .map(([a, v, k, b]) => pageCmd(a, v, k, b, 'token')),
        fc.tuple(account, fc.nat({ max: 1 })).map(([a, v]) => tokenCmd(a, v)),
      ],
      world: async () => ({
        model: { accounts: [await accountWorld(t), await accountWorld(t)] },
        real: { t },
      }),
    });
  },
  { id: 'model-runs', needs, parts, timeout: HUB_TIMEOUT },
);
