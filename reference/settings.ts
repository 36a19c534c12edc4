import { LATITUDE, type FreedomId } from '../spec/latitude.ts';
import type { NoRolePermissions } from '../spec/machines/permissions.ts';

/**
 * What the reference decides where the document leaves a choice that changes behaviour, not
 * only the form of an answer. Each has a default (the reference's recorded decision) and the
 * other choice a server may make as well.
 */
export interface Settings {
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
}

export const DEFAULT_SETTINGS: Settings = {
  tenantIdentity: 'columns',
  signing: 'ES256',
  claims: 'flat',
  permissionsForm: 'object',
  agent: 'grammar',
  tokenReads: 'issue-time',
  noRolePermissions: 'empty-role',
  recursiveSql: 'allowed',
  propertyBinding: 'typed',
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
  'tokens.live-user': { tokenReads: 'live' },
  'permissions.no-role-nothing': { noRolePermissions: 'nothing' },
  'sql.no-recursion': { recursiveSql: 'refused' },
  'properties.bound-as-text': { propertyBinding: 'text' },
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
