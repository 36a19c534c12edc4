import { expect } from 'vitest';
import { conformance, probe, type Conformance } from '../harness/conformance.ts';
import { describeAnswer, expectClientError, refusedAs, statusAndCode } from '../harness/expect.ts';
import type { Reply } from '../harness/http.ts';
import {
  API_KEY,
  EDITOR,
  V2_KEY,
  dashboardsOf,
  entryOf,
  lookUpPath,
  migratedWorld,
  needs,
  parts,
  projectUser,
  snapshot,
  v2Delete,
  v2Get,
  v2Post,
  writtenDashboard,
  type Migrated,
} from '../harness/given/v2.ts';
import { dashboardsPath, appendChartsPath, chartPath, clonePath } from '../harness/paths.ts';

// Refusals on v2 whose shape is ours (§4.16 and §7 leave them open): the 404s for what the
// caller cannot see (details.resource; a source dashboard or a chart of the path only after the
// write's own refusals), and a JSON body that is not an object on a write whose fields are all
// optional. The write probes also read the lists back: a refused write changes nothing (§7).
// And what §7 does fix: no call a client can make, before finalize or by a user with no role,
// is answered 5xx.

/** What the template list and a user's own list show. */
async function lists(t: Conformance, m: Migrated, token: string): Promise<string> {
  return `${snapshot(await dashboardsOf(t, m.w, m.applicationId))} ${snapshot(
    await dashboardsOf(t, m.w, m.applicationId, { token }),
  )}`;
}

/** A project user with these flags and a dashboard of its own in the application. */
async function userWithBoard(t: Conformance, m: Migrated, permissions = EDITOR) {
  const user = await projectUser(t, m.w, permissions);
  const as = { token: user.token };
  const before = await dashboardsOf(t, m.w, m.applicationId, as);
  const board = await writtenDashboard(
    t,
    m.w,
    await v2Post(t, m.w, dashboardsPath(m.applicationId), as, { name: 'Own' }),
    { call: 'v2.create', applicationId: m.applicationId, as, before },
    'setting up: the user creates a dashboard',
  );
  return { token: user.token, boardId: board.id };
}

/** Two writes that name something besides their target, and the flag §2.2 gives each. */
const NAMING = [
  {
    what: 'append-charts naming an unknown sourceDashboardId',
    resource: 'dashboard',
    flag: 'addChart',
    send: (t: Conformance, m: Migrated, token: string, target: string, unknown: string) =>
      v2Post(
        t,
        m.w,
        appendChartsPath(m.applicationId, target),
        { token },
        { sourceDashboardId: unknown },
      ),
  },
  {
    what: 'removing a chart that is not on the layout',
    resource: 'chart',
    flag: 'removeChart',
    send: (t: Conformance, m: Migrated, token: string, target: string, unknown: string) =>
      v2Delete(t, m.w, chartPath(m.applicationId, target, unknown), { token }),
  },
] as const;

for (const c of NAMING) {
  probe(
    ['v2.refusals.not-found'],
    `${c.what}: 404 naming a ${c.resource}, but a write refused as such first`,
    async (t) => {
      const m = await migratedWorld(t);
      const editor = await userWithBoard(t, m);
      const flagless = await userWithBoard(t, m, { ...EDITOR, [c.flag]: false });
      const unknown = t.faker.string.uuid();
      const before = `${await lists(t, m, editor.token)} ${await lists(t, m, flagless.token)}`;
      const own = await c.send(t, m, editor.token, editor.boardId, unknown);
      const refused = await c.send(t, m, flagless.token, flagless.boardId, unknown);
      const template = await c.send(t, m, editor.token, m.template.id, unknown);
      const after = `${await lists(t, m, editor.token)} ${await lists(t, m, flagless.token)}`;
      t.observe(
        `on the user's own dashboard: ${describeAnswer(own)}; by a user without ${c.flag}: ${describeAnswer(refused)}; on a template: ${describeAnswer(template)}; ${after === before ? 'nothing changed' : 'the lists changed'}`,
        refusedAs(own, 404, 'NOT_FOUND', { resource: c.resource }) &&
          refused.status === 403 &&
          statusAndCode(template) === '409 SHARED_DASHBOARD_READ_ONLY' &&
          after === before,
      );
    },
    { needs, parts, relies: V2_KEY },
  );
}

/** Answered 2xx, or refused with a 4xx in the §7 envelope: never a 5xx. */
function answered(res: Reply, what: string): void {
  if (res.status >= 400) expectClientError(res, what);
  else
    expect(
      res.status >= 200 && res.status < 300,
      `${what}: ${res.status} ${res.text.slice(0, 200)}`,
    ).toBe(true);
}

conformance(
  ['errors.client-input.no-server-error', 'errors.envelope.shape'],
  'v2 calls before finalize, and by a project user with no role after it, are answered 2xx or 4xx in the envelope, never 5xx',
  async (t) => {
    const unknown = t.faker.string.uuid();
    const m = await migratedWorld(t, async ({ w, board }) => {
      const as = { token: (await projectUser(t, w)).token };
      const early = 'before finalize, with a project-user token,';
      answered(await v2Get(t, w, dashboardsPath(unknown), as), `${early} an application's list`);
      answered(
        await v2Post(t, w, dashboardsPath(unknown), as, { name: 'Early' }),
        `${early} a create`,
      );
      const look = lookUpPath(t, board.dashboardId);
      if (look !== undefined) {
        answered(await v2Get(t, w, look, as), `${early} the look-up of a v1 id`);
        answered(await v2Get(t, w, look, API_KEY), 'before finalize, the look-up with an API key');
      }
    });
    const as = { token: (await projectUser(t, m.w, null)).token };
    const roleless = 'a project user with no role:';
    answered(await v2Get(t, m.w, dashboardsPath(m.applicationId), as), `${roleless} the list`);
    answered(
      await v2Post(t, m.w, dashboardsPath(m.applicationId), as, { name: 'Roleless' }),
      `${roleless} a create`,
    );
    answered(
      await v2Post(t, m.w, clonePath(m.applicationId, m.template.id), as, {}),
      `${roleless} a clone`,
    );
    const look = lookUpPath(t, m.template.id);
    if (look !== undefined) answered(await v2Get(t, m.w, look, as), `${roleless} the look-up`);
    // What the calls named is still usable: the template list reads (a 5xx fails it).
    entryOf(await dashboardsOf(t, m.w, m.applicationId), m.template.id, 'the template after them');
  },
  { needs, parts, relies: [...V2_KEY, 'v2.dashboards.lookup-path'] },
);

/** POST with a raw JSON text and a bearer token. */
function postRaw(t: Conformance, path: string, raw: string, token: string): Promise<Reply> {
  return t.http.call('POST', path, {
    raw,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
  });
}

probe(
  ['errors.validation.status'],
  'a JSON body that is not an object ([], 5, null) on clone, whose fields are all optional, is refused and clones nothing',
  async (t) => {
    const m = await migratedWorld(t);
    const user = await projectUser(t, m.w);
    const before = await lists(t, m, user.token);
    const answers: [string, Reply][] = [];
    for (const raw of ['[]', '5', 'null'])
      answers.push([
        raw,
        await postRaw(t, clonePath(m.applicationId, m.template.id), raw, user.token),
      ]);
    const after = await lists(t, m, user.token);
    t.observe(
      `${answers.map(([raw, res]) => `${raw}: ${statusAndCode(res)}`).join('; ')}; ${after === before ? 'nothing changed' : 'the lists changed'}`,
      answers.every(([, res]) => refusedAs(res, 400, 'VALIDATION_ERROR')) && after === before,
    );
  },
  { needs, parts, relies: V2_KEY },
);
