import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { CredentialFields, Uuid } from '../../spec/schemas/common.ts';
import { specError } from '../../spec/errors.ts';
import {
  dashboardsFor,
  isShared,
  noOrganizationRefusal,
  resolveFor,
  rulesOf,
  type Actor,
  type DashboardRecord,
  type DashboardWrite,
  type DashboardResult,
} from '../../spec/machines/dashboards.ts';
import { applicationsListRefusal } from '../../spec/machines/migration.ts';
import {
  V2AddChartsBody,
  V2AppendChartsBody,
  V2CloneBody,
  V2CreateDashboardBody,
} from '../../spec/schemas/dashboard.ts';
import type { Done } from '../done.ts';
import { v2Actor, type Principal } from '../store/actors.ts';
import type { AccountRecord } from '../store/store.ts';
import type { Carrier } from './auth.ts';
import type { ReferenceContext } from '../context.ts';
import { caller, errDone, okDone, route } from './route.ts';

/**
 * §4.16 v2 endpoints and the dashboard look-up (decision v2.dashboards.lookup-path). Applications
 * come from the migration (§9): until an account is finalized it has none (decision
 * v2.applications.list.before-finalize), so every application path answers 404 before it.
 *
 * Credentials (§5 table, rule 7; decision v2.credentials.api-key-carrier): `Authorization: Bearer`
 * with a project-user token (acts in that user's space) or a tenant JWT issued before finalize
 * (rule 6: acts as the project user the tenant became), or an API key (acts on templates) as apiKey
 * in the query on GET and DELETE and in the body on POST, where a user-scoped key's organizationId
 * rides too. The authorization header carries JWTs only, so a value there that is not a valid JWT
 * is an invalid token, never a key.
 */
const READ: readonly Carrier[] = ['bearer-token', 'query-key'];
const WRITE: readonly Carrier[] = ['bearer-token', 'body-key'];

const ApplicationPath = z.object({ applicationId: Uuid });
const DashboardPath = z.object({ applicationId: Uuid, dashboardId: Uuid });
const ChartPath = z.object({ applicationId: Uuid, dashboardId: Uuid, chartId: z.string().min(1) });
const CredentialQuery = z.object(CredentialFields);

const notFound = (resource: string, field: string) =>
  specError('NOT_FOUND', `no ${resource} with that id here`, { resource, field });

/** §2.4, §7: the refusal of a project user with no space for dashboards, where the rule makes one. */
function withoutOrganization(account: AccountRecord, actor: Actor): Done<never> | undefined {
  const refused = noOrganizationRefusal(rulesOf(account.dashboards), actor);
  return refused === undefined ? undefined : errDone(refused);
}

/** The caller and the application named in the path; 404 when the account has no such one. */
function inApplication(
  principal: Principal | undefined,
  applicationId: string,
): Done<{ account: AccountRecord; actor: Actor }> {
  const who = v2Actor(caller(principal));
  if (!who.ok) return who;
  const { account } = who.value;
  const refused = withoutOrganization(account, who.value.actor);
  if (refused !== undefined) return refused;
  if (account.migration.phase !== 'after' || !(applicationId in account.migration.applications)) {
    return errDone(notFound('application', 'applicationId'));
  }
  return who;
}

/** The dashboard as the caller sees it, in that application; 404 otherwise. */
function seenIn(
  account: AccountRecord,
  actor: Actor,
  applicationId: string,
  dashboardId: string,
  field = 'dashboardId',
): Done<DashboardRecord> {
  const d = resolveFor(account.dashboards, dashboardId, actor);
  if (d === undefined || d.workspaceId !== applicationId) {
    return errDone(notFound('dashboard', field));
  }
  return okDone(d);
}

/** Decision v2.shapes.beyond-named-fields: a §2.8 v2 dashboard with name, application, charts. */
function v2Item(account: AccountRecord, d: DashboardRecord) {
  const legacy =
    account.migration.phase === 'after' ? account.migration.legacyIdOf[d.dashboardId] : undefined;
  return {
    id: d.dashboardId,
    legacyDashboardId: legacy ?? null,
    kind: isShared(d) ? ('template' as const) : ('dashboard' as const),
    ownerProjectUserId: d.ownerProjectUserId,
    name: d.name,
    applicationId: d.workspaceId,
    chartIds: d.chartIds,
  };
}

function answer(account: AccountRecord, done: Done<DashboardResult>): Done<unknown> {
  if (!done.ok) return done;
  return okDone(v2Item(account, done.value.dashboard));
}

export function v2Routes(app: FastifyInstance, ctx: ReferenceContext): void {
  const { store } = ctx;

  /**
   * A write on one dashboard of an application: the caller, the application and the dashboard
   * as the caller sees it there (404 otherwise), then the command the write makes of them, or
   * the refusal it answers instead.
   */
  const onDashboard = (
    principal: Principal | undefined,
    params: { readonly applicationId: string; readonly dashboardId: string },
    command: (
      actor: Actor,
      account: AccountRecord,
      target: DashboardRecord,
    ) => DashboardWrite | Done<never>,
  ): Done<unknown> => {
    const who = inApplication(principal, params.applicationId);
    if (!who.ok) return who;
    const { account, actor } = who.value;
    const target = seenIn(account, actor, params.applicationId, params.dashboardId);
    if (!target.ok) return target;
    const next = command(actor, account, target.value);
    return 'ok' in next ? next : answer(account, store.dashboards(account, next));
  };

  route(app, ctx, {
    method: 'GET',
    url: '/v2/api/applications',
    auth: READ,
    query: CredentialQuery,
    handle: ({ principal }) => {
      const who = v2Actor(caller(principal));
      if (!who.ok) return who;
      const { account } = who.value;
      const refused = applicationsListRefusal(account.migration, account.dashboards);
      if (refused !== undefined) return errDone(refused);
      if (account.migration.phase !== 'after') return okDone({ applications: [] });
      const applications = Object.values(account.migration.applications)
        .map((a) => ({
          applicationId: a.applicationId,
          name: a.name,
          defaultDashboardId: a.defaultDashboardId,
          legacyWorkspaceId: a.legacyWorkspaceId,
        }))
        .sort((a, b) => a.legacyWorkspaceId.localeCompare(b.legacyWorkspaceId));
      return okDone({ applications });
    },
  });

  route(app, ctx, {
    method: 'GET',
    url: '/v2/api/applications/:applicationId/dashboards',
    auth: READ,
    params: ApplicationPath,
    query: CredentialQuery,
    handle: ({ principal, params }) => {
      const who = inApplication(principal, params.applicationId);
      if (!who.ok) return who;
      const { account, actor } = who.value;
      // §2.8: a user's copy takes its template's place; one entry per dashboard.
      const seen = dashboardsFor(account.dashboards, params.applicationId, actor);
      return okDone({ dashboards: seen.map((d) => v2Item(account, d)) });
    },
  });

  route(app, ctx, {
    method: 'POST',
    url: '/v2/api/applications/:applicationId/dashboards',
    auth: WRITE,
    params: ApplicationPath,
    body: V2CreateDashboardBody,
    handle: ({ principal, params, body }) => {
      const who = inApplication(principal, params.applicationId);
      if (!who.ok) return who;
      const { account, actor } = who.value;
      return answer(
        account,
        store.dashboards(account, {
          type: 'createDashboard',
          dashboardId: ctx.ids.uuid(),
          workspaceId: params.applicationId,
          name: body.name,
          actor,
          via: 'v2',
        }),
      );
    },
  });

  route(app, ctx, {
    method: 'POST',
    url: '/v2/api/applications/:applicationId/dashboards/:dashboardId/clone',
    auth: WRITE,
    params: DashboardPath,
    body: V2CloneBody,
    handle: ({ principal, params, body }) =>
      onDashboard(principal, params, (actor) => ({
        type: 'clone',
        sourceDashboardId: params.dashboardId,
        newDashboardId: ctx.ids.uuid(),
        ...(body.name === undefined ? {} : { name: body.name }),
        targetWorkspaceId: params.applicationId,
        actor,
        via: 'v2',
      })),
  });

  route(app, ctx, {
    method: 'POST',
    url: '/v2/api/applications/:applicationId/dashboards/:dashboardId/charts',
    auth: WRITE,
    params: DashboardPath,
    body: V2AddChartsBody,
    handle: ({ principal, params, body }) =>
      onDashboard(principal, params, (actor) => ({
        type: 'addCharts',
        dashboardId: params.dashboardId,
        chartIds: body.charts,
        actor,
        via: 'v2',
      })),
  });

  route(app, ctx, {
    method: 'DELETE',
    url: '/v2/api/applications/:applicationId/dashboards/:dashboardId/charts/:chartId',
    auth: READ,
    params: ChartPath,
    query: CredentialQuery,
    handle: ({ principal, params }) =>
      onDashboard(principal, params, (actor, account, target) => {
        // Decision v2.shapes.beyond-named-fields: a chart not on the layout is 404, after the
        // write checks (a refused caller learns nothing about the layout).
        const refusedFirst = store.dashboards(account, {
          type: 'removeCharts',
          dashboardId: params.dashboardId,
          chartIds: [],
          actor,
          via: 'v2',
        });
        if (!refusedFirst.ok) return refusedFirst;
        if (!target.chartIds.includes(params.chartId)) {
          return errDone(notFound('chart', 'chartId'));
        }
        return {
          type: 'removeCharts',
          dashboardId: params.dashboardId,
          chartIds: [params.chartId],
          actor,
          via: 'v2',
        };
      }),
  });

  route(app, ctx, {
    method: 'POST',
    url: '/v2/api/applications/:applicationId/dashboards/:dashboardId/append-charts',
    auth: WRITE,
    params: DashboardPath,
    body: V2AppendChartsBody,
    handle: ({ principal, params, body }) =>
      // Decision v2.refusals.not-found: an unknown source is 404 (details.resource 'dashboard',
      // field sourceDashboardId) after the write checks on the target, which the machine makes
      // first, as it does on v1 (a refused caller learns nothing about which dashboards exist).
      onDashboard(principal, params, (actor) => ({
        type: 'appendCharts',
        sourceDashboardId: body.sourceDashboardId,
        targetDashboardId: params.dashboardId,
        batchId: ctx.ids.uuid(),
        actor,
        via: 'v2',
      })),
  });

  // §4.16 look-up; path decided (v2.dashboards.lookup-path).
  route(app, ctx, {
    method: 'GET',
    url: '/v2/api/dashboards/:dashboardId/lookup',
    auth: READ,
    params: z.object({ dashboardId: Uuid }),
    query: CredentialQuery,
    handle: ({ principal, params }) => {
      const who = v2Actor(caller(principal));
      if (!who.ok) return who;
      const { account, actor } = who.value;
      const refused = withoutOrganization(account, actor);
      if (refused !== undefined) return refused;
      if (account.migration.phase !== 'after') {
        return errDone(notFound('dashboard', 'dashboardId'));
      }
      // A v1 id names the v2 dashboard it became; a v2 id names itself.
      const v2Id = account.migration.v2IdOf[params.dashboardId] ?? params.dashboardId;
      const d = resolveFor(account.dashboards, v2Id, actor);
      if (d === undefined) return errDone(notFound('dashboard', 'dashboardId'));
      return okDone({ applicationId: d.workspaceId, dashboardId: d.dashboardId });
    },
  });
}
