import fc from 'fast-check';
import { expect } from 'vitest';
import { z } from 'zod';
import type { World } from '../harness/given/accounts.ts';
import { authorization } from '../harness/authorization.ts';
import type { Conformance } from '../harness/conformance.ts';
import { detailsOf } from '../harness/expect.ts';
import type { Reply } from '../harness/http.ts';
import { accountSnapshot } from '../harness/readback.ts';
import {
  createChart,
  createDashboard,
  createWorkspace,
  dashboardsOf as v1DashboardsOf,
  layoutOf,
  openEndpoint,
} from '../harness/given/dashboards.ts';
import { applicationsOf, dashboardsOf as v2DashboardsOf, snapshot } from '../harness/given/v2.ts';
import { APPEND, CLONE, LIST_WORKSPACES, REMOVE } from '../harness/paths.ts';
import type { WriteKind } from '../harness/replacements.ts';

/**
 * What the migration properties share: arbitrary v1 worlds built through the host hooks, the
 * five v1 writes (§9's table) as data with arbitrary valid bodies, and one read of everything
 * an account shows through v1 and v2 (and the snapshot hook when the target offers it).
 */

/** The shape of a world: per workspace, per dashboard, how many charts (at least one). */
export type WorldShape = readonly (readonly number[])[];

export const worldShape: fc.Arbitrary<WorldShape> = fc.array(
  fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 1, maxLength: 2 }),
  { minLength: 1, maxLength: 3 },
);

export interface BuiltBoard {
  readonly dashboardId: string;
  readonly chartIds: readonly string[];
}
export interface BuiltWorkspace {
  readonly workspaceId: string;
  readonly boards: readonly BuiltBoard[];
}

/** A v1 world of that shape: the first dashboard of a workspace is its primary one. */
export async function buildShape(
  t: Conformance,
  w: World,
  shape: WorldShape,
): Promise<BuiltWorkspace[]> {
  const out: BuiltWorkspace[] = [];
  for (const [i, boards] of shape.entries()) {
    const ws = await createWorkspace(t, w, {
      name: `Workspace ${i}`,
      dashboardName: `Board ${i}.0`,
    });
    const built: BuiltBoard[] = [];
    for (const [j, charts] of boards.entries()) {
      const dashboardId =
        j === 0
          ? ws.dashboardId
          : (await createDashboard(t, w, ws.workspaceId, `Board ${i}.${j}`)).dashboardId;
      const chartIds: string[] = [];
      for (let k = 0; k < charts; k++) {
        const name = `Chart ${i}.${j}.${k}`;
        chartIds.push(
          (await createChart(t, w, dashboardId, name, { title: name, type: 'bar' })).chartId,
        );
      }
      built.push({ dashboardId, chartIds });
    }
    out.push({ workspaceId: ws.workspaceId, boards: built });
  }
  return out;
}
export type Credential = 'org-bound' | 'user-scoped' | 'tenant';

/** A v1 write in terms of indexes into a built world, resolved when it is sent. */
export interface V1Write {
  readonly kind: WriteKind;
  readonly credential: Credential;
  readonly at: number;
  readonly from: number;
  readonly charts: readonly number[];
  readonly name: string | undefined;
  /** clone: whether to name a target workspace (the one `from` points at). */
  readonly retarget: boolean;
}

const name = fc.stringMatching(/^[A-Z][A-Za-z0-9 ]{0,15}[a-z0-9]$/);

export function v1Write(credentials: readonly Credential[]): fc.Arbitrary<V1Write> {
  return fc.record({
    kind: fc.constantFrom<WriteKind>(
      'create',
      'clone',
      'add-charts',
      'remove-charts',
      'append-charts-from',
    ),
    credential: fc.constantFrom(...credentials),
    at: fc.nat(),
    from: fc.nat(),
    charts: fc.array(fc.nat(), { minLength: 1, maxLength: 3 }),
    name: fc.option(name, { nil: undefined }),
    retarget: fc.boolean(),
  });
}

const pick = <T>(items: readonly T[], i: number): T => items[i % items.length] as T;
const boardsOf = (world: readonly BuiltWorkspace[]) => world.flatMap((ws) => ws.boards);

/** The secret and organizationId a write carries for a credential (§5 rules 1–4). */
export interface Secrets {
  readonly w: World;
  readonly tenant?: string;
}

function carried(secrets: Secrets, credential: Credential) {
  if (credential === 'tenant') return { secret: secrets.tenant ?? '', organizationId: undefined };
  const creds = secrets.w.creds(credential);
  return { secret: creds.apiKey, organizationId: creds.organizationId };
}

/** The body of a write, valid for the world (every id is one the world holds). */
export function bodyOf(write: V1Write, world: readonly BuiltWorkspace[]): Record<string, unknown> {
  const boards = boardsOf(world);
  const target = pick(boards, write.at);
  const source = pick(boards, write.from);
  const ws = pick(world, write.at);
  switch (write.kind) {
    case 'create':
      return { workspaceId: ws.workspaceId, name: write.name ?? 'New board' };
    case 'clone':
      return {
        sourceDashboardId: target.dashboardId,
        ...(write.retarget ? { targetWorkspaceId: pick(world, write.from).workspaceId } : {}),
        ...(write.name === undefined ? {} : { name: write.name }),
      };
    case 'add-charts':
      return {
        targetDashboardId: target.dashboardId,
        charts: [...new Set(write.charts.map((c) => pick(source.chartIds, c)))],
      };
    case 'remove-charts':
      return {
        dashboardId: target.dashboardId,
        chartIds: [...new Set(write.charts.map((c) => pick(target.chartIds, c)))],
      };
    case 'append-charts-from':
      return { sourceDashboardId: source.dashboardId, targetDashboardId: target.dashboardId };
  }
}

function pathOf(t: Conformance, kind: WriteKind, body: Readonly<Record<string, unknown>>): string {
  // The open paths may hold the body's ids as placeholders (shapes.endpoints).
  const values = Object.fromEntries(
    Object.entries(body).filter((e): e is [string, string] => typeof e[1] === 'string'),
  );
  switch (kind) {
    case 'create':
      return openEndpoint(t, 'v1CreateDashboard', values).path;
    case 'add-charts':
      return openEndpoint(t, 'v1AddCharts', values).path;
    case 'clone':
      return CLONE;
    case 'remove-charts':
      return REMOVE;
    case 'append-charts-from':
      return APPEND;
  }
}

/** Sends a write with its credential in the authorization header (§5), organizationId in the body. */
export function send(
  t: Conformance,
  secrets: Secrets,
  write: V1Write,
  world: readonly BuiltWorkspace[],
): Promise<Reply> {
  const { secret, organizationId } = carried(secrets, write.credential);
  const body = bodyOf(write, world);
  return t.http.post(
    pathOf(t, write.kind, body),
    { ...body, ...(organizationId === undefined ? {} : { organizationId }) },
    { headers: authorization(t, secret) },
  );
}

export const describeWrite = (write: V1Write, world: readonly BuiltWorkspace[]) =>
  `${write.kind} as ${write.credential} ${JSON.stringify(bodyOf(write, world))}`;

/** Every string a refusal carries: its message and its details' values, deeply. */
export function errorText(res: Reply): string {
  const message = (res.body as { error?: { message?: unknown } }).error?.message;
  return `${String(message)} ${JSON.stringify(detailsOf(res))}`;
}

const Workspaces = z.object({ workspaces: z.array(z.record(z.string(), z.unknown())) });

/** §4.13: the list-workspaces items, checked for one item per workspace keyed by its v1 id. */
export async function workspacesSeen(
  t: Conformance,
  w: World,
  world: readonly BuiltWorkspace[],
  what: string,
): Promise<string> {
  const res = await t.http.get(LIST_WORKSPACES, { query: { apiKey: w.creds().apiKey } });
  const parsed = z.object({ status: z.literal('success'), data: Workspaces }).safeParse(res.body);
  if (res.status !== 200 || !parsed.success)
    expect.fail(`${what}: list-workspaces should answer {workspaces: [...]}, got ${res.text}`);
  const items = parsed.data.data.workspaces;
  expect(items, `${what}: one list-workspaces item per workspace`).toHaveLength(world.length);
  for (const ws of world) {
    expect(
      items.some((item) => Object.values(item).includes(ws.workspaceId)),
      `${what}: an item keyed by the v1 workspace ${ws.workspaceId}`,
    ).toBe(true);
  }
  // Compared as a set (the document does not fix the order of the list), and only through the
  // members the profile names: an item's other members are the target's own and may vary.
  const names = Object.values(t.profile.shapes.workspaceItem ?? {})
    .filter((n): n is string => n !== undefined)
    .sort();
  const shown = (item: Record<string, unknown>) =>
    names.length > 0
      ? names.map((n) => item[n] ?? null)
      : world.map((ws) => ws.workspaceId).filter((id) => Object.values(item).includes(id));
  return JSON.stringify(items.map((item) => JSON.stringify(shown(item))).sort());
}

/** The v1 list of each workspace as the API key sees it (ids, names, layouts). */
export async function v1Seen(
  t: Conformance,
  w: World,
  world: readonly BuiltWorkspace[],
  /**
   * `across-finalize`: each dashboard's id and number of charts only, to compare across a
   * finalize: whether charts keep their ids is open (migration.chart-ids-kept), and a user's
   * dashboard an API key may list (dashboards.v1-list.api-key-view) changes owner (§5 rule 6).
   */
  what: 'layouts' | 'across-finalize' = 'layouts',
): Promise<string> {
  const lists: string[] = [];
  for (const ws of world) {
    const items = await v1DashboardsOf(t, w, ws.workspaceId);
    lists.push(
      what === 'layouts'
        ? layoutOf(items)
        : JSON.stringify(items.map((d) => JSON.stringify([d.id, d.chartIds.length])).sort()),
    );
  }
  return lists.join('\n');
}

/** Everything v2 shows of the account: applications and each one's dashboards, per caller. */
export async function v2Seen(t: Conformance, w: World, tokens: readonly string[]): Promise<string> {
  // In one order whatever order the target lists them in (§4.16 does not fix it).
  const apps = [...(await applicationsOf(t, w))].sort((a, b) =>
    a.applicationId.localeCompare(b.applicationId),
  );
  const parts = [JSON.stringify(apps.map((a) => [a.applicationId, a.legacyWorkspaceId]))];
  for (const app of apps) {
    parts.push(snapshot(await v2DashboardsOf(t, w, app.applicationId)));
    for (const token of tokens)
      parts.push(snapshot(await v2DashboardsOf(t, w, app.applicationId, { token })));
  }
  return parts.join('\n');
}

/** The account's state as the snapshot hook gives it, when the target offers the hook. */
export const snapshotOf = (t: Conformance, w: World) => accountSnapshot(t, w);
