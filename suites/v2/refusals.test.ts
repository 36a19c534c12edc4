import { probe, type Conformance } from '../harness/conformance.ts';
import { describeAnswer, refusedAs, statusAndCode } from '../harness/expect.ts';
import type { Reply } from '../harness/http.ts';
import {
  EDITOR,
  V2_KEY,
  dashboardPath,
  dashboardsOf,
  dashboardsPath,
  migratedWorld,
  needs,
  parts,
  projectUser,
  snapshot,
  v2Post,
  written,
  type Migrated,
} from './world.ts';

// Refusals of v2 writes whose shape is ours (§4.16 and §7 leave them open): the 404 for a
// source dashboard nobody can see, in its order among the write's own refusals, and a JSON
// body that is not an object on a write whose fields are all optional. Each probe also reads
// the lists back: a refused write changes nothing (§7).

/** What the template list and a user's own list show. */
async function lists(t: Conformance, m: Migrated, token: string): Promise<string> {
  return `${snapshot(await dashboardsOf(t, m.w, m.applicationId))} ${snapshot(
    await dashboardsOf(t, m.w, m.applicationId, { token }),
  )}`;
}

/** A project user with these flags and a dashboard of its own in the application. */
async function userWithBoard(t: Conformance, m: Migrated, permissions = EDITOR) {
  const user = await projectUser(t, m.w, permissions);
  const board = written(
    await v2Post(t, m.w, dashboardsPath(m.applicationId), { token: user.token }, { name: 'Own' }),
    'setting up: the user creates a dashboard',
  );
  return { token: user.token, boardId: board.id };
}

probe(
  ['v2.refusals.not-found'],
  'append-charts naming an unknown sourceDashboardId: 404 naming a dashboard, but a write refused as such first',
  async (t) => {
    const m = await migratedWorld(t);
    const editor = await userWithBoard(t, m);
    const noAddChart = await userWithBoard(t, m, { ...EDITOR, addChart: false });
    const unknown = t.faker.string.uuid();
    const append = (token: string, target: string) =>
      v2Post(
        t,
        m.w,
        `${dashboardPath(m.applicationId, target)}/append-charts`,
        { token },
        {
          sourceDashboardId: unknown,
        },
      );
    const before = `${await lists(t, m, editor.token)} ${await lists(t, m, noAddChart.token)}`;
    const own = await append(editor.token, editor.boardId);
    const flagless = await append(noAddChart.token, noAddChart.boardId);
    const template = await append(editor.token, m.template.id);
    const after = `${await lists(t, m, editor.token)} ${await lists(t, m, noAddChart.token)}`;
    t.observe(
      `onto the user's own dashboard: ${describeAnswer(own)}; by a user without addChart: ${describeAnswer(flagless)}; onto a template: ${describeAnswer(template)}; ${after === before ? 'nothing changed' : 'the lists changed'}`,
      refusedAs(own, 404, 'NOT_FOUND', { resource: 'dashboard' }) &&
        flagless.status === 403 &&
        statusAndCode(template) === '409 SHARED_DASHBOARD_READ_ONLY' &&
        after === before,
    );
  },
  { needs, parts, relies: V2_KEY },
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
        await postRaw(t, `${dashboardPath(m.applicationId, m.template.id)}/clone`, raw, user.token),
      ]);
    const after = await lists(t, m, user.token);
    t.observe(
      `${answers.map(([raw, res]) => `${raw}: ${statusAndCode(res)}`).join('; ')}; ${after === before ? 'nothing changed' : 'the lists changed'}`,
      answers.every(([, res]) => refusedAs(res, 400, 'VALIDATION_ERROR')) && after === before,
    );
  },
  { needs, parts, relies: V2_KEY },
);
