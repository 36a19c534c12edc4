import { catalogue, type ClauseId } from './clauses/index.ts';

/**
 * The open points: every place where the document leaves a server room to answer otherwise,
 * listed from the document itself (issue 33). Three kinds:
 *
 * - `not-shown`: each statement of the document that calls something "not shown", one entry per
 *   statement, with the catalogue clauses that carry it (a unit test counts them per section
 *   against the document);
 * - `unspecified`: each clause of level `unspecified` in the catalogue, derived from it (the
 *   point's id is the clause's id);
 * - `partial`: each shape the document describes only in part (members beyond the named ones,
 *   statuses it does not give, orders, forms of values, page markup, stream framing).
 *
 * An open point is answered by the latitude entries that vary it (`varies` in spec/latitude.ts)
 * or, where no answer of any call could show a variation, by a written reason (`REASONS`). A
 * reason never stands in for a transform that is merely hard to write. `eac latitude
 * --open-points` prints the join and exits 1 while a point has neither.
 *
 * Summaries are our own words; the document is cited by section only.
 */
export type OpenPointKind = 'not-shown' | 'unspecified' | 'partial';

export interface OpenPoint {
  readonly id: string;
  /** Section of the document, e.g. `4.16`; `1` for the conventions above §1. */
  readonly section: string;
  readonly kind: OpenPointKind;
  /** One line in our words: what the document leaves open here. */
  readonly summary: string;
  /** The catalogue clauses that carry this point. */
  readonly clauses: readonly ClauseId[];
}

/** The 16 "not shown" statements of the document, in document order. */
const NOT_SHOWN = [
  {
    id: 'not-shown.chart-config-values',
    section: '2.6',
    summary: 'The values each chartConfig field may take.',
    clauses: ['charts.config.allowed-values'],
  },
  {
    id: 'not-shown.workspace-item',
    section: '2.8',
    summary: 'The members of a v1 list-workspaces item.',
    clauses: ['workspaces.list-item.fields'],
  },
  {
    id: 'not-shown.v1-dashboard-record',
    section: '2.8',
    summary: 'The members of a v1 dashboard record beyond its id, tenant and owner.',
    clauses: ['dashboards.v1-record.fields'],
  },
  {
    id: 'not-shown.lifecycle-states',
    section: '3',
    summary: 'Lifecycle states of users, charts, dashboards and organizations.',
    clauses: ['states.lifecycle.not-shown'],
  },
  {
    id: 'not-shown.role-create',
    section: '4.3',
    summary: 'How a role comes into being.',
    clauses: ['roles.create.hook'],
  },
  {
    id: 'not-shown.register-required-fields',
    section: '4.5',
    summary: 'Which fields of register-organization and register-user a caller must send.',
    clauses: ['orgs.register.required-fields', 'users.register.required-fields'],
  },
  {
    id: 'not-shown.user-update-answer',
    section: '4.6',
    summary: 'The members of the data object a user update answers.',
    clauses: ['users.update.response-fields'],
  },
  {
    id: 'not-shown.embed-token-members',
    section: '4.8',
    summary:
      'The members of the organization and user sent to embed-token (but the role id) and of its answer.',
    clauses: ['tokens.embed-token.body-shape', 'tokens.embed-token.response-fields'],
  },
  {
    id: 'not-shown.register-tenant-names',
    section: '4.9',
    summary: 'The names of the register-tenant body members (only their concepts are given).',
    clauses: ['tenants.register.field-names'],
  },
  {
    id: 'not-shown.workspace-filter-names',
    section: '4.13',
    summary: 'The query names of the team and project filters of list-workspaces.',
    clauses: ['workspaces.list.filter-names'],
  },
  {
    id: 'not-shown.v2-and-v1-shapes',
    section: '4.16',
    summary:
      'v2 request and answer shapes beyond the named members, the look-up path, and the paths and answers of the v1 create, add-charts and list-workspace-dashboards.',
    clauses: [
      'v2.shapes.beyond-named-fields',
      'v2.dashboards.lookup-path',
      'dashboards.v1-shapes.not-shown',
    ],
  },
  {
    id: 'not-shown.jwt-contents',
    section: '5',
    summary: 'What the JWTs carry: claims, their names and forms, signing.',
    clauses: ['tokens.claims', 'tenants.token.claims', 'tokens.jwt.exp-matches-expires-at'],
  },
  {
    id: 'not-shown.webhooks',
    section: '6',
    summary: 'Notifications the service sends out to the customer.',
    clauses: ['events.webhooks'],
  },
  {
    id: 'not-shown.error-codes',
    section: '7',
    summary:
      "Error codes, and the status of each validation, credential and not-found refusal, beyond §7's table.",
    clauses: [
      'errors.codes.full-list',
      'errors.validation.status',
      'errors.unauthorized.status',
      'errors.not-found.status',
    ],
  },
  {
    id: 'not-shown.other-limits',
    section: '8',
    summary: 'Rate limits of the other endpoints, size limits, and paging of lists.',
    clauses: ['limits.other-rates', 'limits.body-size', 'limits.pagination'],
  },
  {
    id: 'not-shown.version-history',
    section: '9',
    summary: 'When deprecated things go away, and earlier versions.',
    clauses: ['versioning.timetable'],
  },
] as const satisfies readonly Omit<OpenPoint, 'kind'>[];

/** The shapes the document describes in part; one entry per distinct point. */
const PARTIAL = [
  // Members beyond those named, per answer.
  {
    id: 'partial.members.envelope',
    section: '1',
    summary: 'Members of the success envelope beside status and data.',
    clauses: ['resources.envelope.success'],
  },
  {
    id: 'partial.members.role',
    section: '2.1',
    summary:
      'Members of a role object beyond the §2.1 fields (its permissions stay closed), in the update and list answers.',
    clauses: ['resources.role.fields', 'roles.update.response-fields'],
  },
  {
    id: 'partial.members.roles-list',
    section: '4.2',
    summary: 'Members of the role-list data beside userRoles.',
    clauses: ['roles.list.response-shape'],
  },
  {
    id: 'partial.members.role-delete',
    section: '4.3',
    summary: 'Members of the role-delete data beside its message.',
    clauses: ['roles.delete.response-message'],
  },
  {
    id: 'partial.members.register-organization',
    section: '4.4',
    summary: 'Members of the register-organization data beside the two ids.',
    clauses: ['orgs.register.response-shape'],
  },
  {
    id: 'partial.members.register-user',
    section: '4.5',
    summary: 'Members of the register-user data beside its message and user id.',
    clauses: ['users.register.response-shape'],
  },
  {
    id: 'partial.members.user-token',
    section: '4.7',
    summary: 'Members of the user-token data beside the token and its expiry.',
    clauses: ['tokens.user-token.response-shape', 'resources.token.fields'],
  },
  {
    id: 'partial.members.register-tenant',
    section: '4.9',
    summary: 'Members of the register-tenant data beside its message and token.',
    clauses: ['tenants.register.response-shape'],
  },
  {
    id: 'partial.members.clone',
    section: '4.10',
    summary: 'Members of the v1 clone data beside the new id and name.',
    clauses: ['dashboards.clone.response-shape'],
  },
  {
    id: 'partial.members.v1-writes',
    section: '4.11',
    summary: 'The members of the append-charts-from and remove-charts data objects.',
    clauses: [
      'dashboards.append-charts-from.response-fields',
      'dashboards.remove-charts.response-fields',
    ],
  },
  {
    id: 'partial.members.list-workspaces',
    section: '4.13',
    summary: 'Members of the list-workspaces data beside workspaces.',
    clauses: ['workspaces.list.response-shape'],
  },
  {
    id: 'partial.members.save-from-chat',
    section: '4.14',
    summary: 'Members of the save-from-chat data beside the chart id and name.',
    clauses: ['charts.save-from-chat.response-shape'],
  },
  {
    id: 'partial.members.v2-objects',
    section: '2.8',
    summary: 'Members of a v2 application and a v2 dashboard beyond the named ones.',
    clauses: ['v2.application.fields', 'v2.dashboard.fields'],
  },
  {
    id: 'partial.members.chat-result',
    section: '2.7',
    summary:
      'Members of the chat result beside its four (the chartConfig inside passes back as received).',
    clauses: ['chat.result.fields'],
  },
  {
    id: 'partial.members.events',
    section: '6',
    summary:
      'Members of an event object beside type and payload, and of a payload beside the named.',
    clauses: ['events.stream.type-field', 'events.tool-call', 'events.tool-result'],
  },
  {
    id: 'partial.members.error-envelope',
    section: '7',
    summary: 'Members of the error envelope and of its error object beyond message, code, details.',
    clauses: ['errors.envelope.shape'],
  },
  // Success statuses the document does not give.
  {
    id: 'partial.status.v2-writes',
    section: '4.16',
    summary: 'The success status (and whether a body comes) of each v2 call.',
    clauses: ['v2.shapes.beyond-named-fields'],
  },
  {
    id: 'partial.status.v1-unshown',
    section: '4.16',
    summary: 'The success status and answer of the v1 create and add-charts.',
    clauses: ['dashboards.v1-shapes.not-shown'],
  },
  {
    id: 'partial.status.chat-stream',
    section: '4.15',
    summary: 'The success status of the chat call (only its media type is given).',
    clauses: ['chat.stream.content-type'],
  },
  // Orders.
  {
    id: 'partial.order.lists',
    section: '4.2',
    summary: 'The order of the roles, workspaces, applications and dashboards lists.',
    clauses: [
      'roles.list.order',
      'workspaces.list.response-shape',
      'v2.shapes.beyond-named-fields',
    ],
  },
  {
    id: 'partial.order.members',
    section: '1',
    summary: 'The order in which an object writes its members.',
    clauses: ['resources.envelope.success', 'errors.envelope.shape'],
  },
  {
    id: 'partial.order.chart-data',
    section: '2.7',
    summary: 'The order of the chat result rows when the chart sets no order.',
    clauses: ['chat.result.chart-data-rows', 'charts.config.order-by'],
  },
  // Forms of values.
  {
    id: 'partial.form.timestamps',
    section: '2.5',
    summary: 'How an ISO 8601 UTC instant is written (offset form, fraction length).',
    clauses: [
      'roles.timestamps.format',
      'tokens.expires-at.iso-utc',
      'tokens.issue-time.whole-seconds',
    ],
  },
  {
    id: 'partial.form.ids',
    section: '1',
    summary:
      'The form of ids: upper- or lower-case hexadecimal UUIDs, and the ids typed only as strings (clone id, chart id, chart reference).',
    clauses: ['resources.uuid.format', 'chat.result.generated-chart-ref'],
  },
  {
    id: 'partial.form.permissions-claim',
    section: '5',
    summary: 'How a token writes the §2.2 permissions in effect (object, list of names, string).',
    clauses: ['tokens.claims'],
  },
  {
    id: 'partial.form.success-messages',
    section: '4.3',
    summary: 'The wording of the messages of role-delete, register-user and register-tenant.',
    clauses: [
      'roles.delete.response-message',
      'users.register.response-shape',
      'tenants.register.response-shape',
    ],
  },
  {
    id: 'partial.form.error-text',
    section: '7',
    summary:
      'The message, code and details of an error outside the table, the 400 of §4.1 included.',
    clauses: ['errors.envelope.message-required', 'roles.update.error-envelope'],
  },
  {
    id: 'partial.form.chat-words',
    section: '2.7',
    summary: "The agent's words, SQL and chart settings for a question (explanation, text, tools).",
    clauses: ['chat.result.explanation', 'events.tool-names.examples'],
  },
  // Hub.
  {
    id: 'partial.hub.markup',
    section: '4.17',
    summary:
      "A page's element structure and order around the two texts, its controls and its rows.",
    clauses: ['hub.controls.placement', 'hub.rows.markup'],
  },
  {
    id: 'partial.hub.dashboard-page',
    section: '4.17',
    summary: 'Whether the dashboard page opens its application in place or by redirection.',
    clauses: ['hub.errors.not-found-text'],
  },
  // Stream framing.
  {
    id: 'partial.sse.chunking',
    section: '6',
    summary: 'Where the stream is cut into writes.',
    clauses: ['events.stream.line-format', 'events.stream.sse-framing'],
  },
  {
    id: 'partial.sse.line-ends',
    section: '6',
    summary: 'Which newline ends a line of the stream (LF, CRLF).',
    clauses: ['events.stream.line-format'],
  },
  {
    id: 'partial.sse.non-data-lines',
    section: '6',
    summary: 'Comment, event:, id: and blank lines between the data lines.',
    clauses: ['events.non-data-lines', 'events.stream.sse-framing'],
  },
  {
    id: 'partial.sse.other-types',
    section: '6',
    summary: 'Events of types beyond the five named.',
    clauses: ['events.other-types.allowed'],
  },
  {
    id: 'partial.sse.text-messages',
    section: '6',
    summary: 'How many text messages a stream holds, and where the deltas cut the text.',
    clauses: ['events.text-start', 'events.text-delta', 'events.text.bracketing'],
  },
  {
    id: 'partial.sse.sequence',
    section: '6',
    summary: 'The order of tool calls, tool results and text in one answer.',
    clauses: ['events.tool-result.after-call', 'events.tool-call.answered'],
  },
  // HTTP.
  {
    id: 'partial.http.content-type',
    section: '1',
    summary: 'Parameters of the media type of an answer (charset, its spelling).',
    clauses: ['resources.envelope.success', 'chat.stream.content-type'],
  },
  {
    id: 'partial.http.transfer',
    section: '1',
    summary: 'How a body travels: with a length or chunked.',
    clauses: ['resources.envelope.success'],
  },
  {
    id: 'partial.http.headers',
    section: '1',
    summary: 'Response headers beyond the media type.',
    clauses: ['resources.envelope.success'],
  },
  // Migration.
  {
    id: 'partial.migration.workspace-keying',
    section: '4.13',
    summary:
      'How an application listed after finalize in the v1 shape names the workspace it came from.',
    clauses: ['workspaces.list.response-shape', 'workspaces.list-item.fields'],
  },
] as const satisfies readonly Omit<OpenPoint, 'kind'>[];

type UnspecifiedClause = Extract<(typeof catalogue)[number], { readonly level: 'unspecified' }>;

export type OpenPointId =
  (typeof NOT_SHOWN)[number]['id'] | (typeof PARTIAL)[number]['id'] | UnspecifiedClause['id'];

const isUnspecified = (c: (typeof catalogue)[number]): c is UnspecifiedClause =>
  c.level === 'unspecified';

/** Every open point: the not-shown statements, the unspecified clauses, the partial shapes. */
export const OPEN_POINTS: readonly (OpenPoint & { readonly id: OpenPointId })[] = [
  ...NOT_SHOWN.map((p) => ({ ...p, kind: 'not-shown' as const })),
  ...catalogue.filter(isUnspecified).map((c) => ({
    id: c.id,
    section: c.section,
    kind: 'unspecified' as const,
    summary: c.summary,
    clauses: [c.id],
  })),
  ...PARTIAL.map((p) => ({ ...p, kind: 'partial' as const })),
];

export const OPEN_POINT_IDS: ReadonlySet<string> = new Set(OPEN_POINTS.map((p) => p.id));

export function isOpenPointId(id: string): id is OpenPointId {
  return OPEN_POINT_IDS.has(id);
}

/**
 * Why no answer of any call could show a variation of a point: only for points that no API
 * call answers. A point some call's answer could show otherwise is varied by a latitude entry
 * or stays open in `eac latitude --open-points`, however hard its transform.
 */
export const REASONS: Readonly<Partial<Record<OpenPointId, string>>> = {
  'not-shown.webhooks':
    'The API answers no call with a notification; whatever a server sends out reaches the customer, never a caller of the API.',
  'events.webhooks':
    'The API answers no call with a notification; whatever a server sends out reaches the customer, never a caller of the API.',
  'not-shown.version-history':
    'No call answers with a timetable or a history; the document names only the paths and deprecated members a call takes.',
  'versioning.timetable':
    'No call answers with a timetable or a history; the document names only the paths and deprecated members a call takes.',
  'not-shown.role-create':
    'The API has no call that creates a role, so no answer can show how one is made (worlds get their roles through the hooks).',
  'roles.create.hook':
    'The API has no call that creates a role, so no answer can show how one is made (worlds get their roles through the hooks).',
  'states.migration.finalize-hook':
    'A finalize is made by the service team, not through the API: no call answers how it is triggered (the hooks make it).',
  'not-shown.lifecycle-states':
    "No call of the API moves a user, chart, dashboard or organization into a state beyond §3's moves, so no answer to its calls can turn on one (a member naming a state is an extra member).",
  'states.lifecycle.not-shown':
    "No call of the API moves a user, chart, dashboard or organization into a state beyond §3's moves, so no answer to its calls can turn on one (a member naming a state is an extra member).",
  'states.migration.one-way':
    'No call of the API finalizes, undoes or repeats a migration (the service team does, the hooks for us), so no answer can show whether it can be.',
  'errors.internal':
    'An unexpected failure is a fault of the server, never an answer a correct server gives to any call: a run against one shows none (from the reference a 5xx is a bug), so how one would be reported cannot be seen without breaking the server.',
  'auth.api-key.hub-generated':
    "Keys are made in the hub's developer settings, which no API call reaches; worlds get theirs through the hooks.",
};
