import { V2_REPLACEMENT } from '../../spec/machines/migration.ts';
import {
  ID_CELLS,
  PAGES,
  TOKEN_PATHS,
  idVariantName,
  tokenVariantName,
  type IdPath,
  type PageKind,
  type TokenPath,
} from './pages.ts';
import {
  PROPERTY_PATHS,
  VALUE_CLASSES,
  propertyVariant,
  type PropertyPath,
  type ValueClass,
} from './properties.ts';

/**
 * Issue 34's inventories (docs/faults-and-mutation.md): one table per class of instances the
 * document implies, each instance with a wrong variant of the reference that breaks it (a name
 * of tools/variants/) and the conformance test that catches it (its name as results.json holds
 * it). The instances are derived from the document and the reference, not from the tests:
 *
 * - keyed state: each piece of state the reference keeps per party × each dimension the
 *   document keys it by (account, project, project organization, user, token, thread);
 * - property values: each class of property value × each path that reads properties;
 * - refused v1 writes: each v1 write §7 refuses after finalize × the v2 endpoint its 410 names;
 * - page error paths: each hub page × each way §4.17 refuses it.
 *
 * `npx tsx tools/inventories.ts` renders the tables with the variants' measured outcomes
 * (bench/results/wrong-variants.json) to bench/results/inventories.md.
 */

export type InventoryClass =
  'keyed state' | 'property values' | 'refused v1 writes' | 'page error paths';

export interface InventoryRow {
  readonly class: InventoryClass;
  /** The instance: the piece of state, value class, write or page, × its dimension or path. */
  readonly instance: string;
  /** Where the document says it. */
  readonly section: string;
  /** The name of the wrong variant (tools/variants/*.ts) that breaks it. */
  readonly variant: string;
  /** The conformance test that catches the variant, by its name. */
  readonly test: string;
}

/** An instance the table leaves out, and why (never a gap: a gap is a row without a test). */
export interface LeftOut {
  readonly class: InventoryClass;
  readonly instance: string;
  readonly why: string;
}

const keyed = (instance: string, section: string, variant: string, test: string): InventoryRow => ({
  class: 'keyed state',
  instance,
  section,
  variant,
  test,
});

/** Every piece of per-party state × every dimension the document keys it by. */
const KEYED: readonly InventoryRow[] = [
  keyed(
    'roles × project',
    '§4.2',
    'sibling: a project lists the roles of every project of the account',
    'a project’s role list holds its own roles and none of a sibling project’s',
  ),
  keyed(
    'roles × project (by id)',
    '§4.1, §4.3',
    'sibling: a role of another project of the account is found by id',
    "a role update at P's path with Q's role id is refused and changes neither project",
  ),
  keyed(
    'roles × account',
    '§5 rules 1–2',
    'a 404 that still deletes another account’s role',
    'a role delete of B’s role with A’s organization-bound key leaves A and B as they were',
  ),
  keyed(
    'projects × account',
    '§1, §5 rule 2',
    'a key of another account reaches this account’s project',
    'register-organization into B’s project with A’s organization-bound key is refused and shows nothing of B',
  ),
  keyed(
    'project organizations × account',
    '§1, §5 rule 2',
    'a 403 that still registers the organization in another account',
    'register-organization into B’s project with A’s organization-bound key leaves A and B as they were',
  ),
  keyed(
    'project organizations × project',
    '§1, §4.5',
    'sibling: an organization id of another project is accepted for a user',
    "register-user in P with Q's project organization id is refused and changes neither project",
  ),
  keyed(
    'externalId look-up × project',
    '§2.3, §4.5',
    'sibling: an externalId unknown in the project resolves in a sibling project',
    "register-user in P with the externalId of Q's organization is refused and changes neither project",
  ),
  keyed(
    'externalId look-up × project organization',
    '§2.3, §4.5',
    'sibling: an externalId resolves to the first organization of its project',
    'an externalId names its own organization, not a sibling of the same project',
  ),
  keyed(
    'project users × project',
    '§4.6',
    'sibling: user update finds the user in any project of the account',
    "a user update at P's path with Q's user id is refused and changes neither project",
  ),
  keyed(
    'project users × account (user-token)',
    '§4.7, §5 rule 2',
    'keyed: user-token finds the userId in any account',
    'user-token issues no token for a user never registered, nor for another account’s user',
  ),
  keyed(
    'user-token × user',
    '§4.7',
    'sibling: user-token built from the first user of the same organization',
    'each user’s token carries that user’s own role and organization, not a sibling’s',
  ),
  keyed(
    "user-token × the user's stored data now (no per-user cache)",
    '§4.7, §3',
    'stale cache: user-token carries the properties cached at the user’s first token',
    'a token carries the stored user, role, organization and properties, and the next one the updated properties',
  ),
  keyed(
    'embed-token × project organization',
    '§4.8',
    'sibling: embed-token leaves a known user in the organization it first signed in with',
    'embed-token for a known user under a sibling organization issues a token of that organization',
  ),
  keyed(
    'embed-token × user (role and properties of this sign-in)',
    '§4.8',
    'properties: embed-token keeps the properties of the first sign-in',
    'embed-token for a user who exists, sent with another userRoleId and properties, issues a token of those',
  ),
  keyed(
    'user-scoped API key × organization (membership)',
    '§5 rule 1',
    'user-scoped keys act on any organization (membership not checked)',
    'embed-token: a user-scoped key naming another account’s organization is refused',
  ),
  keyed(
    'organization-bound API key × organization',
    '§5 rule 3',
    'default: an organization-bound key acts on the organizationId it is sent',
    'embed-token: an organization-bound key with another account’s organizationId acts on its own account',
  ),
  keyed(
    "a user's copies × user (v1 lists)",
    '§2.8',
    'a list shows both the shared dashboard and the user’s copy',
    "the tenant's copy replaces the shared dashboard in the tenant's list, once",
  ),
  keyed(
    'shared dashboards × user (an edit goes to the copy)',
    '§2.2 rule 3',
    'a user’s edit changes the shared dashboard',
    "a tenant's removal of a chart leaves the shared dashboard as it was",
  ),
  keyed(
    'v2 dashboards × user (space)',
    '§2.8, §5 rule 7',
    "v2: a project user sees every user's dashboards",
    "a dashboard a project user creates is a 'dashboard' in that user's space, seen by nobody else",
  ),
  keyed(
    'v2 templates × user (an edit goes to the user’s space)',
    '§5 rule 7, §7 409',
    'v2: a project-user edit of a template changes the template',
    "any interleaving of v2 writes by several users leaves the templates unchanged and each user's list holding the templates once and only their own dashboards",
  ),
  keyed(
    'v2 space × project organization',
    '§2.4, §7 403',
    'v2: a user with no project organization is given a space anyway',
    'a project user with no project organization gets 403 PROJECT_USER_WITHOUT_ORGANIZATION on v2 writes, and nothing is made',
  ),
  keyed(
    'dashboard look-up × account',
    '§4.16',
    'another account’s dashboard readable by id (the v2 look-up searches every account)',
    "v2: look-up of B's v1 dashboard id with A's API key is refused, shows nothing of B and changes nothing",
  ),
  keyed(
    'migration × account',
    '§9',
    'a finalize that also migrates another organization',
    "finalizing one organization leaves another's v1 writes working",
  ),
  keyed(
    'tenant → project user × tenant',
    '§4.9, §5 rule 6',
    'v2: a finalize that maps no tenants',
    "a tenant JWT from before finalize acts on v2 as the tenant's project user, the same user register-tenant's new token names",
  ),
  keyed(
    'chat rate window × user',
    '§8',
    'chat: the rate limit kept per organization only',
    'the limit is per user: once one user is limited, another user of the same organization still chats',
  ),
  keyed(
    'chat rate window × account',
    '§8',
    'keyed: the chat rate window keyed by the userId alone, shared across accounts',
    'the limit is per organization too: once a user is limited, a user of another account registered with the same userId still chats',
  ),
  keyed(
    'chat thread × thread_id',
    '§4.15',
    'chat: requests without a thread_id share a thread',
    "what the profile's follow-up, sent with no thread_id after a first chart sent with none, makes of that chart",
  ),
  keyed(
    'chat thread × user',
    '§4.15',
    "keyed: a thread keyed by its thread_id alone, another user's follow-up continues it",
    'each user of two project organizations sees in chat answers only values of its own rows',
  ),
  keyed(
    'agents × project',
    '§4.15',
    "chat: another project's agent answers the account's users",
    "the answer for an agent of another project of the user's own account",
  ),
  keyed(
    'data connections × account',
    '§4.15 (the token decides the data)',
    "data: the connections of an organization include every account's",
    "a chart reads its own account's table though another account's, made later, has the same name",
  ),
  keyed(
    'rows × user (row-level security), chat',
    '§1, §2.4',
    'chat: the row filter dropped',
    "a chart of the profile's questions whose chartConfig names one column, one aggregate and no filter holds exactly that aggregate of the asking user's rows",
  ),
  keyed(
    'rows × user (row-level security), drill-down',
    '§2.2 drillDown, §2.4',
    'hub: drill-down rows ignore row-level security',
    'drilling into a point shows exactly the rows of that point the viewer may see, not the aggregate',
  ),
  keyed(
    'rows × user, a page’s controlled filters',
    '§4.17 filter_{controlKey}, §2.4',
    "data: a page's controlled filter stands in for the user property of the same name",
    '/share/dashboard: filter_region set to a value only hidden rows hold shows no row the user may not see',
  ),
  keyed(
    "a page's dashboards × viewer (copies)",
    '§2.8, §4.17',
    "hub: both the shared dashboard and the user's copy listed",
    "a user with a copy of a shared dashboard sees one entry for it on the page, the copy's content",
  ),
];

/** Keyed state the reference holds that is no instance of the table. */
const KEYED_LEFT_OUT: readonly LeftOut[] = [
  {
    class: 'keyed state',
    instance: 'chart data caches × any dimension',
    why: 'the reference keeps no cache of chart data: every page, chart-data call and drill-down queries anew (reference/charts/rows.ts)',
  },
  {
    class: 'keyed state',
    instance: 'chat threads × account',
    why: "not broken here (left for a later round): the reference keeps threads in each account's own namespace (reference/store/chat.ts), so a variant needs a map shared by all accounts, as the rate window's has; the thread × user row's test works within one account",
  },
  {
    class: 'keyed state',
    instance: 'account clock × account',
    why: 'the clock is a host hook, not the document',
  },
];

/** §7's 410 row, §4.16's table: the five v1 writes and the v2 endpoint each 410 names. */
const WRITES = [
  [
    'create',
    'create',
    "migrated: v1 create's 410 names the v2 clone endpoint instead of the v2 create",
  ],
  [
    'clone',
    'clone',
    "after finalize, clone's 410 names the v2 create endpoint instead of the v2 clone",
  ],
  [
    'add-charts',
    'addCharts',
    "migrated: v1 add-charts' 410 names the v2 append-charts endpoint instead of the v2 add-charts",
  ],
  [
    'remove-charts',
    'removeCharts',
    "migrated: remove-charts' 410 names the v2 add-charts endpoint instead of the v2 remove-chart",
  ],
  [
    'append-charts-from',
    'appendCharts',
    "migrated: append-charts-from's 410 names the v2 add-charts endpoint instead of the v2 append-charts",
  ],
] as const;

const REFUSED: readonly InventoryRow[] = WRITES.map(([write, kind, variant]) => ({
  class: 'refused v1 writes',
  instance: `${write} → ${V2_REPLACEMENT[kind]}`,
  section: '§7, §4.16, §9',
  variant,
  test: "each v1 write's 410 names the v2 endpoint that replaces that write, and not another write's",
}));

/** The test of each page's refused-token cells, by the way the token is refused. */
const TOKEN_TESTS: Readonly<Record<TokenPath, string>> = {
  'no jwt':
    "every page, without a jwt or with one that is no token of the service, shows 'Invalid or missing token.', not 'Dashboard not found.'",
  'an empty jwt':
    "every page, without a jwt or with one that is no token of the service, shows 'Invalid or missing token.', not 'Dashboard not found.'",
  'a jwt that is no token':
    "every page, without a jwt or with one that is no token of the service, shows 'Invalid or missing token.', not 'Dashboard not found.'",
  'a forged signature':
    "every page, without a jwt or with one that is no token of the service, shows 'Invalid or missing token.', not 'Dashboard not found.'",
  'an expired jwt':
    "every page with an expired jwt shows 'Invalid or missing token.', not 'Dashboard not found.'",
  'a tenant JWT':
    "a tenant JWT shows 'Invalid or missing token.' on every page, before finalize and after it (v1 and v2 ids), though v2 calls take it then",
};

/** The test of each id cell (page × whose id). */
const ID_TESTS: Readonly<Record<IdPath, string>> = {
  'an unknown id':
    "an id the token cannot see shows 'Dashboard not found.': an unknown id (as the path's id or as dashboardId), and another account's dashboard",
  "another account's id":
    "ids the token may not see show 'Dashboard not found.', not the token text: another application's dashboard of the viewer's own account, and a good token of another account",
  "another application's dashboard":
    "ids the token may not see show 'Dashboard not found.', not the token text: another application's dashboard of the viewer's own account, and a good token of another account",
  "another user's own dashboard":
    "another project user's own dashboard, in the viewer's account, shows 'Dashboard not found.' on the dashboard page and as dashboardId, not the token text",
};

const PAGE_NAMES: Readonly<Record<PageKind, string>> = {
  dashboard: '/share/dashboard/{id}',
  application: '/share/application/{id}',
  'application+dashboardId': '/share/application/{id}?dashboardId=',
};

const PAGE_ROWS: readonly InventoryRow[] = [
  ...PAGES.flatMap((page) =>
    TOKEN_PATHS.map((path): InventoryRow => ({
      class: 'page error paths',
      instance: `${PAGE_NAMES[page]} × ${path} → 'Invalid or missing token.'`,
      section: '§4.17, §5 rule 6',
      variant: tokenVariantName(page, path),
      test: TOKEN_TESTS[path],
    })),
  ),
  ...ID_CELLS.map(([page, path]): InventoryRow => ({
    class: 'page error paths',
    instance: `${PAGE_NAMES[page]} × ${path} → 'Dashboard not found.'`,
    section: '§4.17',
    variant: idVariantName(page, path),
    test: ID_TESTS[path],
  })),
];

const PAGE_LEFT_OUT: readonly LeftOut[] = [
  {
    class: 'page error paths',
    instance:
      "/share/application/{id} × another user's own dashboard, × another application's dashboard",
    why: 'the application page without dashboardId names no dashboard: it shows the application the token may see',
  },
  {
    class: 'page error paths',
    instance: 'every page × a token whose user is gone',
    why: 'the document has no call that removes a project user',
  },
];

/** The test of each property path: for the misread classes, and for null and an absent key. */
const PROPERTY_TESTS: Readonly<
  Record<PropertyPath, { readonly set: string; readonly unset?: string }>
> = {
  'the token': {
    set: 'a fresh token carries registered properties of every class as sent: 0, false, the empty string, numbers, booleans',
  },
  'the stored user': { set: 'the stored user shows registered properties of every class as sent' },
  'a user update': {
    set: 'after an update to 0, false and the empty string, the next token carries those values',
  },
  "a saved chart's rows": {
    set: 'a saved chart shows each user the rows its number, boolean or empty-string property opens, 0 and false included',
    unset:
      'a user whose filtered properties are null or absent never gets a chart\u2019s rows unfiltered',
  },
  'chat answers': {
    set: 'a chat chart for a user of 0, false and the empty string holds exactly its rows',
    unset:
      'chat answers to a user whose filtered properties are null or absent never hold rows unfiltered',
  },
  "a page's chart rows": {
    set: 'a page shows each user the rows its number, boolean and empty-string properties open, 0 and false included, on a chart and in drill-down',
    unset:
      'a page never shows a user whose filtered properties are null or absent the rows unfiltered',
  },
  "a page's drill-down rows": {
    set: 'a page shows each user the rows its number, boolean and empty-string properties open, 0 and false included, on a chart and in drill-down',
  },
};

const UNSET_CLASSES: readonly ValueClass[] = ['null', 'an absent key'];

const PROPERTY_ROWS: readonly InventoryRow[] = VALUE_CLASSES.flatMap((cls) =>
  PROPERTY_PATHS.flatMap((path): InventoryRow[] => {
    const variant = propertyVariant(cls, path);
    return variant === undefined
      ? []
      : [
          {
            class: 'property values',
            instance: `${cls} × ${path}`,
            section: '§1, §2.4',
            variant: variant.name,
            test:
              (UNSET_CLASSES.includes(cls)
                ? PROPERTY_TESTS[path].unset
                : PROPERTY_TESTS[path].set) ?? '',
          },
        ];
  }),
);

const PROPERTY_LEFT_OUT: readonly LeftOut[] = [
  {
    class: 'property values',
    instance: 'null, an absent key × the token, the stored user, a user update',
    why: 'what a null value or an absent key does is left open (resources.properties.missing-property); only "never unfiltered" binds them, which only a path that reads rows can break',
  },
  {
    class: 'property values',
    instance: "null, an absent key × a page's drill-down rows",
    why: 'a drill-down starts from a point the page shows, and the chart showing it reads the same rows under the same row filters: for such a user there is no point to drill into, so no test from outside can tell a drill-down that would have gone unfiltered (the chart rows of the same page are the row)',
  },
  {
    class: 'property values',
    instance: "any class × a project organization's properties (§2.3)",
    why: 'the document has row-level security read the user\u2019s properties ({{user.<key>}}); how an organization\u2019s properties scope data is not shown',
  },
];

export const inventories: readonly InventoryRow[] = [
  ...KEYED,
  ...PROPERTY_ROWS,
  ...REFUSED,
  ...PAGE_ROWS,
];

export const leftOut: readonly LeftOut[] = [
  ...KEYED_LEFT_OUT,
  ...PROPERTY_LEFT_OUT,
  ...PAGE_LEFT_OUT,
];
