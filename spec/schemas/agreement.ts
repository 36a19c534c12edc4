// Compile-time agreement between the zod schemas (what the reference parses with) and the types
// generated from the two OpenAPI documents (what the contract publishes). Nothing here runs:
// `tsc --noEmit` fails when a schema and its OpenAPI counterpart drift apart (STYLE 5, 13).
//
// Each line states one pair; request types use the schema's input, responses its output.
// `Agree` demands mutual assignability. Where exact equality is out of reach for a stated reason,
// `Covers` checks the direction that matters for a response: every answer the contract allows
// must pass the schema.
import type { z } from 'zod';
import type { components, operations } from '../types/openapi.d.ts';
import type {
  components as hookComponents,
  operations as hookOperations,
} from '../types/hooks.openapi.d.ts';
import type * as S from './index.ts';

/**
 * JSON has no `undefined`: zod infers `key?: T | undefined` for an optional member while
 * openapi-typescript writes `key?: T`, which differ under `exactOptionalPropertyTypes`.
 * Both sides are compared after dropping the explicit `undefined`, recursively.
 */
type Wire<T> = T extends readonly (infer U)[]
  ? Wire<U>[]
  : T extends object
    ? { [K in keyof T]: Wire<Exclude<T[K], undefined>> }
    : T;

type Agree<A, B> = [Wire<A>] extends [Wire<B>]
  ? [Wire<B>] extends [Wire<A>]
    ? true
    : false
  : false;
type Covers<Zod, Api> = [Wire<Api>] extends [Wire<Zod>] ? true : false;

type Schema<N extends keyof components['schemas']> = components['schemas'][N];
type HookSchema<N extends keyof hookComponents['schemas']> = hookComponents['schemas'][N];
type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never;
type HookBody<Op extends keyof hookOperations> = Json<hookOperations[Op]['requestBody']>;
type Query<Op extends keyof operations> = NonNullable<operations[Op]['parameters']['query']>;
type In<T extends z.ZodType> = z.input<T>;
type Out<T extends z.ZodType> = z.infer<T>;

// ---------------------------------------------------------------- common (§7, preamble)
export const errorEnvelope: Agree<Out<typeof S.ErrorEnvelope>, Schema<'ErrorEnvelope'>> = true;
export const hookErrorEnvelope: Agree<
  Out<typeof S.ErrorEnvelope>,
  HookSchema<'ErrorEnvelope'>
> = true;
export const expiration: Agree<Out<typeof S.Expiration>, Schema<'Expiration'>> = true;
export const properties: Agree<Out<typeof S.Properties>, Schema<'Properties'>> = true;

// ---------------------------------------------------------------- roles (§2.1, §2.2, §4.1–§4.3)
export const rolePermissions: Agree<
  Out<typeof S.RolePermissions>,
  Schema<'RolePermissions'>
> = true;
export const projectUserRole: Agree<
  Out<typeof S.ProjectUserRole>,
  Schema<'ProjectUserRole'>
> = true;
export const updateRoleBody: Agree<In<typeof S.UpdateRoleBody>, Schema<'UpdateRoleBody'>> = true;
export const updateRoleResponse: Agree<
  Out<typeof S.UpdateRoleResponse>,
  Schema<'UpdateRoleResponse'>
> = true;
export const listRolesResponse: Agree<
  Out<typeof S.ListRolesResponse>,
  Schema<'ListRolesResponse'>
> = true;
export const deleteRoleResponse: Agree<
  Out<typeof S.DeleteRoleResponse>,
  Schema<'DeleteRoleResponse'>
> = true;
export const roleQuery: Agree<In<typeof S.RoleQuery>, Query<'listProjectUserRoles'>> = true;

// ---------------------------------------------------------------- organizations (§4.4)
export const registerOrganizationBody: Agree<
  In<typeof S.RegisterOrganizationBody>,
  Schema<'RegisterOrganizationBody'>
> = true;
export const registerOrganizationResponse: Agree<
  Out<typeof S.RegisterOrganizationResponse>,
  Schema<'RegisterOrganizationResponse'>
> = true;

// ---------------------------------------------------------------- users (§2.4, §4.5, §4.6)
export const registerUserBody: Agree<
  In<typeof S.RegisterUserBody>,
  Schema<'RegisterUserBody'>
> = true;
export const registerUserResponse: Agree<
  Out<typeof S.RegisterUserResponse>,
  Schema<'RegisterUserResponse'>
> = true;
export const updateUserBody: Agree<In<typeof S.UpdateUserBody>, Schema<'UpdateUserBody'>> = true;
export const projectUser: Agree<Out<typeof S.ProjectUser>, Schema<'ProjectUser'>> = true;
export const updateUserResponse: Agree<
  Out<typeof S.UpdateUserResponse>,
  Schema<'UpdateUserResponse'>
> = true;

// ---------------------------------------------------------------- tokens (§2.5, §4.7, §4.8)
export const token: Agree<Out<typeof S.Token>, Schema<'Token'>> = true;
export const userTokenBody: Agree<In<typeof S.UserTokenBody>, Schema<'UserTokenBody'>> = true;
export const tokenResponse: Agree<Out<typeof S.TokenResponse>, Schema<'TokenResponse'>> = true;
export const embedTokenBody: Agree<In<typeof S.EmbedTokenBody>, Schema<'EmbedTokenBody'>> = true;
export const embedTokenResponse: Agree<
  Out<typeof S.EmbedTokenResponse>,
  Schema<'EmbedTokenResponse'>
> = true;

// ---------------------------------------------------------------- tenants (§4.9)
export const registerTenantBody: Agree<
  In<typeof S.RegisterTenantBody>,
  Schema<'RegisterTenantBody'>
> = true;
export const registerTenantResponse: Agree<
  Out<typeof S.RegisterTenantResponse>,
  Schema<'RegisterTenantResponse'>
> = true;

// ---------------------------------------------------------------- v1 dashboards (§2.8, §4.10–§4.13)
export const cloneDashboardBody: Agree<
  In<typeof S.CloneDashboardBody>,
  Schema<'CloneDashboardBody'>
> = true;
export const cloneDashboardResponse: Agree<
  Out<typeof S.CloneDashboardResponse>,
  Schema<'CloneDashboardResponse'>
> = true;
export const appendChartsFromBody: Agree<
  In<typeof S.AppendChartsFromBody>,
  Schema<'AppendChartsFromBody'>
> = true;
export const appendChartsFromResponse: Agree<
  Out<typeof S.ObjectResponse>,
  Schema<'AppendChartsFromResponse'>
> = true;
export const removeChartsBody: Agree<
  In<typeof S.RemoveChartsBody>,
  Schema<'RemoveChartsBody'>
> = true;
export const removeChartsResponse: Agree<
  Out<typeof S.ObjectResponse>,
  Schema<'RemoveChartsResponse'>
> = true;
export const listWorkspacesQuery: Agree<
  In<typeof S.ListWorkspacesQuery>,
  Query<'listWorkspacesV1'>
> = true;
export const workspaceItem: Agree<Out<typeof S.WorkspaceItem>, Schema<'WorkspaceListItem'>> = true;
export const listWorkspacesResponse: Agree<
  Out<typeof S.ListWorkspacesResponse>,
  Schema<'ListWorkspacesResponse'>
> = true;
export const v1CreateDashboardBody: Agree<
  In<typeof S.V1CreateDashboardBody>,
  Schema<'V1CreateDashboardBody'>
> = true;
export const v1CreateDashboardResponse: Agree<
  Out<typeof S.V1CreateDashboardResponse>,
  Schema<'V1CreateDashboardResponse'>
> = true;
export const v1AddChartsBody: Agree<In<typeof S.V1AddChartsBody>, Schema<'V1AddChartsBody'>> = true;
export const layoutResponse: Agree<Out<typeof S.LayoutResponse>, Schema<'LayoutResponse'>> = true;
export const listWorkspaceDashboardsQuery: Agree<
  In<typeof S.ListWorkspaceDashboardsQuery>,
  Query<'listWorkspaceDashboardsV1'>
> = true;
export const listWorkspaceDashboardsResponse: Agree<
  Out<typeof S.ListWorkspaceDashboardsResponse>,
  Schema<'ListWorkspaceDashboardsResponse'>
> = true;

// ---------------------------------------------------------------- charts and chat (§2.6, §2.7, §4.14, §4.15, §6)
export const chartConfig: Agree<Out<typeof S.ChartConfig>, Schema<'ChartConfig'>> = true;
export const saveFromChatBody: Agree<
  In<typeof S.SaveFromChatBody>,
  Schema<'SaveFromChatBody'>
> = true;
export const saveFromChatResponse: Agree<
  Out<typeof S.SaveFromChatResponse>,
  Schema<'SaveFromChatResponse'>
> = true;
export const chatBody: Agree<In<typeof S.ChatBody>, Schema<'ChatBody'>> = true;
export const chatResult: Agree<Out<typeof S.ChatResult>, Schema<'ChatResult'>> = true;
export const chatEvent: Agree<Out<typeof S.KnownChatEvent>, Schema<'ChatEvent'>> = true;

// ---------------------------------------------------------------- v2 (§2.8, §4.16)
export const application: Agree<Out<typeof S.Application>, Schema<'Application'>> = true;
export const v2Dashboard: Agree<Out<typeof S.V2Dashboard>, Schema<'V2Dashboard'>> = true;
export const listApplicationsResponse: Agree<
  Out<typeof S.ListApplicationsResponse>,
  Schema<'ListApplicationsResponse'>
> = true;
export const v2CreateDashboardBody: Agree<
  In<typeof S.V2CreateDashboardBody>,
  Schema<'CreateV2DashboardBody'>
> = true;
export const v2CloneBody: Agree<In<typeof S.V2CloneBody>, Schema<'CloneV2DashboardBody'>> = true;
export const v2AddChartsBody: Agree<In<typeof S.V2AddChartsBody>, Schema<'AddChartsBody'>> = true;
export const v2AppendChartsBody: Agree<
  In<typeof S.V2AppendChartsBody>,
  Schema<'AppendChartsBody'>
> = true;

// ---------------------------------------------------------------- host hooks (spec/hooks.openapi.yaml)
type Envelope<T extends z.ZodType> = Out<ReturnType<typeof S.success<T>>>;
// The schema takes any hook name, so a kit meets a target offering hooks it does not know yet.
export const capabilities: Covers<
  Envelope<typeof S.Capabilities>,
  HookSchema<'CapabilitiesResponse'>
> = true;
export const createAccountBody: Agree<
  In<typeof S.CreateAccountBody>,
  HookBody<'createAccount'>
> = true;
export const account: Agree<Envelope<typeof S.Account>, HookSchema<'AccountResponse'>> = true;
export const addMemberBody: Agree<In<typeof S.AddMemberBody>, HookBody<'addAccountMember'>> = true;
export const member: Agree<Envelope<typeof S.Member>, HookSchema<'MemberResponse'>> = true;
export const createProjectBody: Agree<
  In<typeof S.CreateProjectBody>,
  HookBody<'createProject'>
> = true;
export const project: Agree<Envelope<typeof S.Project>, HookSchema<'ProjectResponse'>> = true;
export const createRoleBody: Agree<In<typeof S.CreateRoleBody>, HookBody<'createRole'>> = true;
export const role: Agree<Envelope<typeof S.ProjectUserRole>, HookSchema<'RoleResponse'>> = true;
export const createWorkspaceBody: Agree<
  In<typeof S.CreateWorkspaceBody>,
  HookBody<'createWorkspace'>
> = true;
export const workspace: Agree<Envelope<typeof S.Workspace>, HookSchema<'WorkspaceResponse'>> = true;
export const createDashboardBody: Agree<
  In<typeof S.CreateDashboardBody>,
  HookBody<'createDashboard'>
> = true;
export const createChartBody: Agree<In<typeof S.CreateChartBody>, HookBody<'createChart'>> = true;
export const hookDashboard: Agree<Out<typeof S.HookDashboard>, HookSchema<'Dashboard'>> = true;
export const hookChart: Agree<Out<typeof S.HookChart>, HookSchema<'Chart'>> = true;
export const createAgentBody: Agree<In<typeof S.CreateAgentBody>, HookBody<'createAgent'>> = true;
export const clock: Agree<Envelope<typeof S.Clock>, HookSchema<'ClockResponse'>> = true;
export const freezeBody: Agree<In<typeof S.FreezeBody>, HookBody<'freezeClock'>> = true;
// The schema is the general clock; the contract narrows a freeze's answer to `frozen: true`.
export const frozenClock: Covers<
  Envelope<typeof S.Clock>,
  HookSchema<'FrozenClockResponse'>
> = true;
export const advanceBody: Agree<In<typeof S.AdvanceBody>, HookBody<'advanceClock'>> = true;
