import { LATITUDE, type FreedomId } from '../spec/latitude.ts';
import type { NoRolePermissions } from '../spec/machines/permissions.ts';
import { DECIDED, type DashboardRules } from '../spec/machines/dashboards.ts';

/** The two dashboard rules one setting of their own turns on together (layoutEdits). */
type LayoutRules = 'unknownChartRemoval' | 'repeatedChart';

const { unknownChartRemoval: _removal, repeatedChart: _repeat, ...DECIDED_RULES } = DECIDED;

/**
 * What the reference decides where the document leaves a choice that changes behaviour, not
 * only the form of an answer: the dashboard rules of the dashboards machine (spec/machines/
 * dashboards.ts, each documented there) and the choices below. Each has a default (the
 * reference's recorded decision) and the other choice a server may make as well.
 */
export interface Settings extends Omit<DashboardRules, LayoutRules> {
  /**
   * §4.9 leaves open which registrations name the same tenant. `columns`: the deprecated unique
   * key when given, else the split columns and schema; `columns-and-name`: the display name
   * counts beside the columns and schema (a unique key, when given, still names one tenant
   * alone: that is what the key is for).
   */
  readonly tenantIdentity: 'columns' | 'columns-and-name';
  /**
   * §5 rule 8 leaves a token's contents open. `ES256` with its public key served as a JSON Web
   * Key Set; `HS256` with a shared secret and no key set served at all.
   */
  readonly signing: 'ES256' | 'HS256';
  /**
   * §5 rule 8 again, for where a project-user token keeps what it says. `flat`: `sub`, `perm`,
   * `rol`, `pog`, `props` at the top; `nested`: the user in `uid` (no `sub`), the rest under
   * `ctx` as `permissions`, `role`, `organization`, `properties`.
   */
  readonly claims: 'flat' | 'nested';
  /**
   * §5 rule 8 again, for how the permissions are written: `object`, every §2.2 flag with a
   * boolean; `array`, the granted flags' names (in the flat layout under the namespaced claim
   * `https://eac.example/permissions`); `string`, those names separated by spaces (flat: `scope`).
   */
  readonly permissionsForm: 'object' | 'array' | 'string';
  /**
   * §4.15 and §2.7 leave the agent's words, SQL and charts to the implementation. `grammar`:
   * the deterministic agent of the question grammar of docs/reference-agent.md (announced as the hooks
   * capability `agent-grammar`); `second`: another agent that reads questions its own way
   * (reference/chat/second-agent.ts), standing for a language model the suites cannot predict.
   */
  readonly agent: 'grammar' | 'second';
  /**
   * §5 rule 5 gives a token's duration, not whether it still works at the instant of its
   * expiresAt, nor (rule 8) whether exp names that instant. `at-expires-at`: refused from
   * expiresAt on, exp equal to it; `through-expires-at`: accepted at expiresAt, exp the second
   * after (spec/machines/token.ts, TokenEnd).
   */
  readonly tokenEnd: 'at-expires-at' | 'through-expires-at';
  /**
   * §4.15 leaves open the answer to a body that parsed but that the endpoint cannot take as
   * asked: payload.agent_id not the path's, no message of role user, an agent_version the agent
   * cannot have. `refuse`: a 400 or 404 before any stream (reference/chat/request.ts);
   * `answer`: the path's agent answers, asks for a question, or answers as its latest version.
   */
  readonly chatRequests: 'refuse' | 'answer';
  /**
   * §4.15 again: whether a version pinned earlier in a thread holds for a later message that
   * pins none. `own`: each message its own pin, else the latest; `carried`: the thread's last pin.
   */
  readonly threadVersion: 'own' | 'carried';
  /** §8 leaves the kind of the per-minute chat window open: `fixed` to the clock minute, or `sliding`. */
  readonly chatWindow: 'fixed' | 'sliding';
  /**
   * §4.17 leaves open how the dashboard page opens its application. `in-place`: the page is the
   * application with its navigation, this dashboard shown; `redirect`: it answers 302 to the
   * application page with `dashboardId`, which shows the dashboard alone.
   */
  readonly dashboardPage: 'in-place' | 'redirect';
  /** §2.2 enableScheduleReport needs the organization's feature: `all` have it, or `none`. */
  readonly scheduledReports: 'all' | 'none';
  /**
   * §2.6 and §4.17 leave open what stands for the rows of a chart saved without its
   * sqlOverride: `empty-table`, a table of its fields with no row beside a line saying why;
   * `line`, that line alone.
   */
  readonly unloadableChart: 'empty-table' | 'line';
  /** §4.17 leaves open what a `filter_*` value that is not JSON sets: `nothing`, or the `text`. */
  readonly filterText: 'nothing' | 'text';
  /**
   * §9 leaves open which page is the v1 dashboard component after finalize.
   * `dashboard-and-application-pages`: both, by their v1 ids, frozen; `dashboard-page`: the
   * dashboard page only, a v1 workspace id sending the application page to the v2 application.
   */
  readonly v1Component: 'dashboard-and-application-pages' | 'dashboard-page';
  /**
   * §4.17 leaves open which charts can be drilled into. `refuse`: a chart sampling its table is
   * not (decision hub.drill-down.single-table); `every-row`: its point shows every row behind
   * it, the sample set aside.
   */
  readonly drillSampled: 'refuse' | 'every-row';
  /**
   * §4.7 and §3 leave open what a token issued before a user or role change stands for.
   * `issue-time`: what its claims carried when it was issued (decisions
   * tokens.user-token.properties-after-update, states.role.issued-token-unchanged); `live`: the
   * user as stored now, its properties, organization and role's permissions.
   */
  readonly tokenReads: 'issue-time' | 'live';
  /**
   * §2.2 leaves open what a user with no role may do beside viewing. `empty-role`: what an
   * empty role gives (canSetDefaultDashboard and canEditChartFromSession on); `nothing`: no flag.
   */
  readonly noRolePermissions: NoRolePermissions;
  /**
   * §1 leaves open which SQL a chart or the agent may run. `allowed`: a recursive common table
   * expression runs like any read-only SELECT (stopped after 5 s); `refused`: refused before
   * it runs (sql-refused).
   */
  readonly recursiveSql: 'allowed' | 'refused';
  /**
   * §1 leaves open how a `{{user.<key>}}` value reaches the SQL. `typed`: a bare one is bound as
   * the value it is (a boolean as a boolean), one inside a string literal as text; `text`:
   * every one is bound as text.
   */
  readonly propertyBinding: 'typed' | 'text';
  /**
   * §4.12 and §4.16 leave open what a v1 layout edit does with a chart it cannot take as asked
   * (dashboards.remove-charts.unknown-chart, dashboards.v1-add-charts.repeat). `lenient`: the
   * chart is skipped and the call succeeds; `strict`: the call is refused (404 for a chart not on
   * the layout, 409 for one already there) and nothing changes.
   */
  readonly layoutEdits: 'lenient' | 'strict';
  /**
   * §4.9 leaves open whether a tenant needs something to split on
   * (tenants.register.split-required). `required`: the columns, the schema or the unique key,
   * else 400; `optional`: a registration with none of them is taken too.
   */
  readonly tenantSplit: 'required' | 'optional';
  /**
   * §4.8 leaves open whether embed-token creates or updates (tokens.embed-token.upserts):
   * `upsert`, fields the body gives replace the stored ones; `create-only`, an organization or
   * user the project already holds signs in as stored, unchanged.
   */
  readonly embedSignIn: 'upsert' | 'create-only';
  /**
   * §4.8 leaves open whether embed-token signs in an organization or user the project does not
   * hold (tokens.embed-token.creates): `create` them, or `refuse` (404) and create nothing.
   */
  readonly embedAbsent: 'create' | 'refuse';
  /**
   * §4.14 leaves open which save-from-chat fields are mandatory
   * (charts.save-from-chat.required-fields): `chart-config` alone (the name falls back to the
   * title), or `name-too` (a body without a name is refused 400).
   */
  readonly saveFromChatRequired: 'chart-config' | 'name-too';
}

export const DEFAULT_SETTINGS: Settings = {
  ...DECIDED_RULES,
  tenantIdentity: 'columns',
  signing: 'ES256',
  claims: 'flat',
  permissionsForm: 'object',
  agent: 'grammar',
  tokenEnd: 'at-expires-at',
  chatRequests: 'refuse',
  threadVersion: 'own',
  chatWindow: 'fixed',
  dashboardPage: 'in-place',
  scheduledReports: 'all',
  unloadableChart: 'empty-table',
  filterText: 'nothing',
  v1Component: 'dashboard-and-application-pages',
  drillSampled: 'refuse',
  tokenReads: 'issue-time',
  noRolePermissions: 'empty-role',
  recursiveSql: 'allowed',
  propertyBinding: 'typed',
  layoutEdits: 'lenient',
  tenantSplit: 'required',
  embedSignIn: 'upsert',
  embedAbsent: 'create',
  saveFromChatRequired: 'chart-config',
};

type BehaviourId = Extract<(typeof LATITUDE)[number], { kind: 'behaviour' }>['id'];

/** What each `behaviour` entry of the latitude catalogue turns on (every one has a row). */
const BEHAVIOURS: Readonly<Record<BehaviourId, Partial<Settings>>> = {
  'tenant.identity-name': { tenantIdentity: 'columns-and-name' },
  'tokens.hs256': { signing: 'HS256' },
  // The reference already reads an API key in the authorization header both bare and after
  // `Bearer` (decision auth.header.format): nothing changes.
  'auth.both-forms': {},
  'claims.layout': { claims: 'nested' },
  'claims.permissions-array': { permissionsForm: 'array' },
  'claims.permissions-string': { permissionsForm: 'string' },
  'chat.second-agent': { agent: 'second' },
  'tokens.through-expires-at': { tokenEnd: 'through-expires-at' },
  'chat.requests-answered': { chatRequests: 'answer' },
  'chat.version-carried': { threadVersion: 'carried' },
  'chat.sliding-window': { chatWindow: 'sliding' },
  'hub.dashboard-redirect': { dashboardPage: 'redirect' },
  'hub.no-scheduled-reports': { scheduledReports: 'none' },
  'hub.unloadable-line-only': { unloadableChart: 'line' },
  'hub.filter-text': { filterText: 'text' },
  'hub.v1-component-dashboard-page': { v1Component: 'dashboard-page' },
  'hub.drill-sampled': { drillSampled: 'every-row' },
  'tokens.live-user': { tokenReads: 'live' },
  'permissions.no-role-nothing': { noRolePermissions: 'nothing' },
  'sql.no-recursion': { recursiveSql: 'refused' },
  'properties.bound-as-text': { propertyBinding: 'text' },
  'dashboards.layout-strict': { layoutEdits: 'strict' },
  'tenants.split-optional': { tenantSplit: 'optional' },
  'dashboards.connections-unchecked': { guestConnection: 'unchecked' },
  'dashboards.append-same-charts': { appendedCharts: 'same' },
  'dashboards.charts-renumbered': { standInCharts: 'fresh' },
  'dashboards.key-sees-all': { apiKeyView: 'all' },
  'dashboards.clone-in-place': { userClone: 'in-place' },
  'v2.unmigrated-refused': { applicationsBeforeFinalize: 'refused' },
  'charts.save-checked': { chartSaving: 'checked' },
  'migration.tenants-shared-organization': { tenantUsers: 'shared' },
  'v2.no-organization-own-space': { noOrganizationCalls: 'own-space' },
  'dashboards.v1-project-users': { v1ProjectUsers: 'taken' },
  'tenants.permissions-at-issue': { tenantPermissions: 'issued' },
  'tokens.embed-creates-only': { embedSignIn: 'create-only' },
  'charts.save-name-required': { saveFromChatRequired: 'name-too' },
  'tokens.embed-known-only': { embedAbsent: 'refuse' },
};

/**
 * The settings for a list of latitude entries. An entry that changes only the form of answers
 * (kind `form`) is no business of the reference and is passed over; an id the catalogue does
 * not hold is an error.
 */
export function settingsFor(latitude: readonly FreedomId[] = []): Settings {
  let settings = DEFAULT_SETTINGS;
  for (const id of latitude) {
    const freedom = LATITUDE.find((f) => f.id === id);
    if (freedom === undefined) throw new Error(`no latitude entry is called ${JSON.stringify(id)}`);
    if (freedom.kind === 'form') continue;
    settings = { ...settings, ...BEHAVIOURS[freedom.id] };
  }
  return settings;
}

/** Whether these are the reference's own choices, every one as its decisions record it. */
export function isDefault(settings: Settings): boolean {
  return (Object.keys(DEFAULT_SETTINGS) as (keyof Settings)[]).every(
    (key) => settings[key] === DEFAULT_SETTINGS[key],
  );
}

/** The dashboard rules of the dashboards machine (spec/machines/dashboards.ts) these settings take. */
export function dashboardRulesOf(settings: Settings): DashboardRules {
  const strict = settings.layoutEdits === 'strict';
  return {
    unknownChartRemoval: strict ? 'refuse' : 'skip',
    repeatedChart: strict ? 'refuse' : 'skip',
    guestConnection: settings.guestConnection,
    appendedCharts: settings.appendedCharts,
    standInCharts: settings.standInCharts,
    apiKeyView: settings.apiKeyView,
    userClone: settings.userClone,
    applicationsBeforeFinalize: settings.applicationsBeforeFinalize,
    chartSaving: settings.chartSaving,
    tenantUsers: settings.tenantUsers,
    noOrganizationCalls: settings.noOrganizationCalls,
    v1ProjectUsers: settings.v1ProjectUsers,
    tenantPermissions: settings.tenantPermissions,
  };
}
