import { z } from 'zod';
import { HubProfile } from './hub-profile.ts';

/**
 * A target profile: what an implementation states about itself so that the suites judge it
 * fairly. (a) Which parts of the document it serves: a test of a part it does not serve is
 * not-run, and no test leans on an unserved part as its oracle. (b) How it answered the
 * shapes the document leaves open (member and field names, paths, where its tokens carry
 * things): a test that needs such a shape reads it here, and probes check the target against
 * its own stated choices. (c) How its hub pages can be found by a browser (the hub section).
 *
 * Published as JSON Schema in spec/profile.schema.json (generated; a unit test keeps it fresh).
 * The reference's own profile, the default of `eac run`, is fixtures/profiles/reference.json.
 */

/** Parts of the document a target may serve. */
export const PROFILE_PARTS = [
  /** §4.1–§4.8: roles, project organizations, project users, user-token and embed-token. */
  'identity',
  /** §4.9 and the tenant JWT wherever §5 accepts one. */
  'tenant-flow',
  /** §4.10–§4.14 and the v1 endpoints §4.16 and §9 name. */
  'v1-dashboards',
  /** The v2 table of §4.16. */
  'v2',
  /** §4.15 and §6: the streaming agent chat. */
  'chat',
  /** §4.17: the embedded pages. */
  'hub',
] as const;
export const ProfilePart = z.enum(PROFILE_PARTS);
export type ProfilePart = z.infer<typeof ProfilePart>;

const Name = z.string().min(1);
/** A dot-separated path into a JSON object, e.g. `sub` or `eac.permissions`. */
const JsonPath = z
  .string()
  .regex(/^[A-Za-z0-9_$-]+(\.[A-Za-z0-9_$-]+)*$/, 'a dot-separated member path such as "sub"');
/**
 * Where a claim sits in a JWT payload: a dot-separated member path (`sub`, `ctx.role`), or a
 * JSON pointer (RFC 6901) for any member name at all, namespaced ones included
 * (`/https:~1~1example.com~1permissions`).
 */
const ClaimPath = z.union([JsonPath, z.string().regex(/^(\/[^/]*)+$/, 'a JSON pointer')], {
  error: 'a dot-separated member path such as "sub", or a JSON pointer such as "/ctx/role"',
});
/** `METHOD /path/{param}` relative to the base address. */
const Endpoint = z
  .string()
  .regex(/^(GET|POST|PUT|PATCH|DELETE) \/\S*$/, 'a method and a path, e.g. "POST /v1/api/x"');

/** §4.8: member names inside embed-token's `organization` and `user`, and of its answer. */
export const EmbedTokenShape = z
  .object({
    organization: z
      .object({ externalId: Name, name: Name.optional(), properties: Name.optional() })
      .strict(),
    user: z
      .object({
        id: Name.optional(),
        name: Name.optional(),
        properties: Name.optional(),
      })
      .strict(),
    /** Members of the answer's data holding the token and its expiry, when it has them. */
    answer: z.object({ token: Name.optional(), expiresAt: Name.optional() }).strict().optional(),
  })
  .strict();

/** §4.9: field names of register-tenant for the concepts the document lists. */
export const RegisterTenantShape = z
  .object({
    name: Name.optional(),
    /** The columns to split tenants on, as an object column -> tenant value. */
    columns: Name.optional(),
    /** The schema to split tenants on. */
    schema: Name.optional(),
    /** The deprecated unique key. */
    uniqueKey: Name.optional(),
    /** Tenant editing permissions, an object of §2.2 flags. */
    permissions: Name.optional(),
    connectionOverride: Name.optional(),
    metadata: Name.optional(),
    expiration: Name.optional(),
    /**
     * A value in the target's own form for a concept whose form §4.9 leaves wholly open: the
     * connection override. Without it, tests send no connection override (it is optional).
     */
    examples: z.object({ connectionOverride: z.unknown().optional() }).strict().optional(),
  })
  .strict();

/** Where a target's project-user tokens carry things, as paths into the JWT payload. */
export const TokenClaimsShape = z
  .object({
    /** The project user the token is for. */
    subject: ClaimPath.optional(),
    /** The effective §2.2 permissions, in the form `permissionsForm` states. */
    permissions: ClaimPath.optional(),
    /**
     * How the permissions claim is written (§5 rule 8 leaves it open): `object`, every flag
     * name with a boolean (the default); `array`, the names of the granted flags; `string`,
     * the names of the granted flags separated by spaces (as OAuth writes scopes); `other`, a
     * form none of these describes, so tests that read the permissions end not-run.
     */
    permissionsForm: z.enum(['object', 'array', 'string', 'other']).optional(),
    /** The role id the token was issued with. */
    role: ClaimPath.optional(),
    /** The project organization of the user. */
    projectOrganization: ClaimPath.optional(),
    /** The user's properties. */
    properties: ClaimPath.optional(),
  })
  .strict();

/** Names of the members of a v1 dashboard list item beyond §2.8's id, tenantId, ownerProjectUserId. */
export const V1DashboardShape = z
  .object({
    /** The dashboard's name. */
    name: Name.optional(),
    /** The workspace holding it. */
    workspaceId: Name.optional(),
    /** The chart ids of its layout, in layout order (an array of strings). */
    chartIds: Name.optional(),
  })
  .strict();

/** Names of the members of a list-workspaces item. */
export const WorkspaceItemShape = z
  .object({
    workspaceId: Name.optional(),
    name: Name.optional(),
    dashboardId: Name.optional(),
    dashboardName: Name.optional(),
  })
  .strict();

/**
 * The path placeholders an endpoint the profile names may hold, each with the value it stands
 * for (the document's name of that value). A `{name}` outside this list is refused when the
 * profile loads, since no test could fill it.
 */
export const ENDPOINT_PLACEHOLDERS = {
  v1CreateDashboard: { workspaceId: 'workspaceId' },
  v1AddCharts: { targetDashboardId: 'targetDashboardId', dashboardId: 'targetDashboardId' },
  v1ListWorkspaceDashboards: { workspaceId: 'workspaceId' },
  lookUpDashboard: { dashboardId: 'dashboardId', id: 'dashboardId' },
  dashboardCharts: { dashboardId: 'dashboardId' },
} as const satisfies Record<string, Record<string, string>>;
export type StatedEndpoint = keyof typeof ENDPOINT_PLACEHOLDERS;

/** The `{name}` placeholders of a path, in order. */
export function placeholdersOf(path: string): string[] {
  return [...path.matchAll(/\{([^{}]*)\}/g)].map((m) => m[1] ?? '');
}

/** The values a caller has for an endpoint's placeholders, by the document's names. */
export type EndpointValues = Readonly<Record<string, string>>;

/**
 * `METHOD /path` of an endpoint the profile states, its placeholders filled from `values` (by
 * what each stands for, ENDPOINT_PLACEHOLDERS); `used` names the values the path took.
 */
export function fillEndpoint(
  name: StatedEndpoint,
  stated: string,
  values: EndpointValues,
): { method: string; path: string; used: ReadonlySet<string> } {
  const [method = 'GET', template = ''] = stated.split(' ');
  const stands: Readonly<Record<string, string>> = ENDPOINT_PLACEHOLDERS[name];
  const used = new Set<string>();
  let path = template;
  for (const placeholder of placeholdersOf(template)) {
    const meaning = stands[placeholder];
    const value = meaning === undefined ? undefined : values[meaning];
    // The schema refuses a placeholder nothing fills; a caller lacking the value for an
    // allowed one is a bug of the caller.
    if (meaning === undefined || value === undefined)
      throw new Error(`${name}: no value for {${placeholder}} in ${stated}`);
    used.add(meaning);
    path = path.replace(`{${placeholder}}`, encodeURIComponent(value));
  }
  return { method, path, used };
}

const Endpoints = z
  .object({
    v1CreateDashboard: Endpoint.optional(),
    v1AddCharts: Endpoint.optional(),
    v1ListWorkspaceDashboards: Endpoint.optional(),
    lookUpDashboard: Endpoint.optional(),
    /**
     * A read of one dashboard's chart ids in layout order, a route of the target's own,
     * `{dashboardId}` in its path; answers the success envelope with `data.chartIds`.
     */
    dashboardCharts: Endpoint.optional(),
  })
  .strict()
  .superRefine((endpoints, ctx) => {
    for (const [name, stated] of Object.entries(endpoints)) {
      const allowed: Readonly<Record<string, string>> =
        ENDPOINT_PLACEHOLDERS[name as StatedEndpoint];
      for (const placeholder of placeholdersOf(stated ?? '')) {
        if (Object.hasOwn(allowed, placeholder)) continue;
        ctx.addIssue({
          code: 'custom',
          path: [name],
          message: `the path holds {${placeholder}}, which no test can fill; a placeholder of ${name} is one of ${Object.keys(
            allowed,
          )
            .map((k) => `{${k}}`)
            .join(', ')} (or none: the value then travels as the document shows it)`,
        });
      }
    }
  });

export const ProfileShapes = z
  .object({
    embedToken: EmbedTokenShape.optional(),
    registerTenant: RegisterTenantShape.optional(),
    /**
     * Endpoints the document names without a path (§4.16, §9), as `METHOD /path`; a path may
     * hold the placeholders ENDPOINT_PLACEHOLDERS lists, filled by each test.
     */
    endpoints: Endpoints.optional(),
    /** §4.13: query names of list-workspaces' two optional filters. */
    listWorkspacesFilters: z
      .object({ team: Name.optional(), project: Name.optional() })
      .strict()
      .optional(),
    /**
     * §5: how an API key travels in the `authorization` header (clone, append-charts-from,
     * remove-charts, save-from-chat): `bearer` is `Bearer <key>`, `raw` is the bare key, `both`
     * accepts either (the suites then send the `Bearer` form).
     */
    authorizationHeader: z.enum(['bearer', 'raw', 'both']).optional(),
    /**
     * §4.16, §5 rule 7: where an API key travels on v2 calls when it is not the `apiKey` member
     * (query on GET and DELETE, JSON body on POST) that decision v2.credentials.api-key-carrier
     * records: the request header that carries it (its name in lower case), the key written
     * after `scheme` and a space when one is stated, bare otherwise. organizationId stays where
     * rule 7 puts it. Absent: the decision's member.
     */
    v2ApiKey: z
      .object({
        header: z.string().regex(/^[a-z0-9!#$%&'*+.^_`|~-]+$/, 'a header name in lower case'),
        scheme: Name.optional(),
      })
      .strict()
      .optional(),
    /** The JSON Web Key Set of the keys the target signs tokens with: a path or a URL. */
    jwks: z.string().min(1).optional(),
    tokenClaims: TokenClaimsShape.optional(),
    /**
     * §2.8 shows a v1 dashboard record with id, tenantId and ownerProjectUserId only: the names of
     * the further members a list-workspace-dashboards item carries, when it carries them.
     */
    v1Dashboard: V1DashboardShape.optional(),
    /** §2.8, §4.13: member names of a list-workspaces item (the document shows none). */
    workspaceItem: WorkspaceItemShape.optional(),
    /**
     * Success statuses of calls whose status the document does not show (§4.16's v2 calls, the
     * v1 calls it names without a shape), by `METHOD /path` as the document or `endpoints`
     * spells it. The suites accept any 2xx with the success envelope there; this states which.
     */
    successStatuses: z.record(Endpoint, z.number().int().min(200).max(299)).optional(),
    /**
     * §4.9: which registrations name the same tenant. `columns`: the split columns and schema
     * alone; `columns-and-name`: the display name too. Either way a deprecated unique key,
     * when given, names one tenant alone.
     */
    tenantIdentity: z.enum(['columns', 'columns-and-name']).optional(),
    /**
     * §8 leaves paging open: how the target pages its list answers (roles, workspaces,
     * applications, dashboards). Absent: a list answer holds the whole list. Present without
     * `cursor`: paged in a way not stated here, so a test reading a list ends not-run.
     */
    paging: z
      .object({
        /**
         * A page names the next one by a cursor: `pointer`, a JSON pointer into the answer's
         * body to it (absent, null or empty on the last page), e.g. `/data/nextCursor`;
         * `parameter`, the query parameter the next request carries it in (the request's other
         * parameters kept).
         */
        cursor: z
          .object({
            pointer: z.string().regex(/^(\/[^/]*)+$/, 'a JSON pointer'),
            parameter: Name,
          })
          .strict()
          .optional(),
      })
      .strict()
      .optional(),
  })
  .strict();

/** §4.15 and §6: where a chat answer shows what the document leaves open. */
export const ChatProfile = z
  .object({
    /**
     * Where an answer reports the agent version that answered: the `type` of the event that
     * carries it and a JSON pointer into that event's JSON (e.g. `/payload/agentVersion`).
     */
    versionReport: z
      .object({ event: Name, pointer: z.string().regex(/^(\/[^/]*)+$/, 'a JSON pointer') })
      .strict()
      .optional(),
    /**
     * Questions in the implementer's own words, for checks that hold for any agent (a
     * language model included): `charts`, questions over the table a test loads (columns
     * tenant, region, product, amount, order_date) that the agent answers with a chart;
     * `thread`, a first question answered with a chart and a follow-up that makes sense only
     * with the first one's context, with JSON pointers into the chartConfig the follow-up's
     * chart keeps from the first (e.g. `/dimensions`).
     */
    examples: z
      .object({
        charts: z.array(z.string().min(1)).optional(),
        thread: z
          .object({
            question: z.string().min(1),
            followUp: z.string().min(1),
            keeps: z.array(z.string().regex(/^(\/[^/]*)+$/, 'a JSON pointer')).min(1),
          })
          .strict()
          .optional(),
      })
      .strict()
      .optional(),
  })
  .strict();

export const TargetProfile = z
  .object({
    $schema: z.string().optional(),
    /** Free text: which implementation and version the profile describes. */
    description: z.string().optional(),
    serves: z.array(ProfilePart),
    shapes: ProfileShapes.default({}),
    /**
     * Unspecified clauses (ids of `eac clauses --level unspecified`) whose recorded decision the
     * target follows as it stands: a behaviour the document leaves open that a test leans on
     * (spec/reliance.ts says which entry states each reliance).
     */
    follows: z.array(z.string().regex(/^[a-z0-9-]+(\.[a-z0-9-]+)+$/, 'a clause id')).optional(),
    chat: ChatProfile.optional(),
    /** How a browser finds things on the target's hub pages (spec/hub-profile.ts). */
    hub: HubProfile.optional(),
  })
  .strict();
export type TargetProfile = z.infer<typeof TargetProfile>;
