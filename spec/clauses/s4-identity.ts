import { defineClauses } from './types.ts';

// §4.1–4.9: roles, organizations, users, tokens and the v1 tenant flow.
export const s4Identity = defineClauses([
  // §4.1 update role
  {
    id: 'roles.update.path',
    section: '4.1',
    level: 'must',
    summary: 'PUT /v1/api/projects/{projectId}/user-roles/{projectUserRoleId} updates a role.',
  },
  {
    id: 'roles.update.path-params-uuid',
    section: '4.1',
    level: 'must',
    summary: 'projectId and projectUserRoleId in the role update path are both required UUIDs.',
  },
  {
    id: 'roles.update.body-all-optional',
    section: '4.1',
    level: 'must',
    summary: 'The role update body has no mandatory field.',
  },
  {
    id: 'roles.update.body-credentials',
    section: '4.1',
    level: 'must',
    summary: 'The role update body takes apiKey (non-empty string) and organizationId (UUID).',
  },
  {
    id: 'roles.update.renames',
    section: '4.1',
    level: 'must',
    summary: 'A non-empty name in the role update body becomes the role name.',
  },
  {
    id: 'roles.update.replaces-permissions',
    section: '4.1',
    level: 'must',
    summary:
      'permissions in the role update body takes the place of the stored flags entirely, not merged.',
  },
  {
    id: 'roles.update.permissions-only-known-flags',
    section: '4.1',
    level: 'must',
    summary: 'The permissions sent to a role update may hold only the §2.2 flags, each a boolean.',
  },
  {
    id: 'roles.update.response-fields',
    section: '4.1',
    level: 'must',
    summary:
      'A 200 role update answers the success envelope with the full role, every §2.1 field present.',
  },
  {
    id: 'roles.update.error-envelope',
    section: '4.1',
    level: 'must',
    summary: 'A 400 from the role update carries the §7 error envelope.',
  },
  {
    id: 'roles.update.empty-body',
    section: '4.1',
    level: 'unspecified',
    summary: 'What an update carrying neither name nor permissions does is left open.',
    decision: 'It succeeds and answers the role unchanged except for a refreshed updated_at.',
  },
  {
    id: 'roles.update.unknown-role',
    section: '4.1',
    level: 'unspecified',
    summary: 'The answer to an update of a role that does not exist in the project is left open.',
    decision:
      "404 NOT_FOUND with details.resource 'role' (also for a role of another project or account).",
  },

  // §4.2 list roles
  {
    id: 'roles.list.path',
    section: '4.2',
    level: 'must',
    summary: 'GET /v1/api/projects/{projectId}/user-roles lists the roles of a project.',
  },
  {
    id: 'roles.list.query-credentials',
    section: '4.2',
    level: 'must',
    summary:
      'Listing roles takes apiKey (non-empty) and organizationId (UUID) from the query string.',
  },
  {
    id: 'roles.list.response-shape',
    section: '4.2',
    level: 'must',
    summary: 'A 200 role list answers {status, data: {userRoles: [role]}}.',
  },
  {
    id: 'roles.list.id-usable-as-user-role',
    section: '4.2',
    level: 'must',
    summary: 'A listed role id is accepted as user.userRoleId by the embed-token call.',
  },
  {
    id: 'roles.list.order',
    section: '4.2',
    level: 'unspecified',
    summary: 'The order of the role list is left open.',
    decision: 'Sorted by created_at ascending, then by id.',
  },
  {
    id: 'roles.list.unknown-project',
    section: '4.2',
    level: 'unspecified',
    summary: 'Listing roles of a project the caller cannot see has no stated answer.',
    decision:
      "404 NOT_FOUND with details.resource 'project'; no difference between missing and foreign projects.",
  },

  // §4.3 delete role
  {
    id: 'roles.delete.path',
    section: '4.3',
    level: 'must',
    summary: 'DELETE /v1/api/projects/{projectId}/user-roles/{projectUserRoleId} deletes a role.',
  },
  {
    id: 'roles.delete.query-credentials',
    section: '4.3',
    level: 'must',
    summary:
      'Deleting a role takes apiKey and organizationId from the query string, as listing does.',
  },
  {
    id: 'roles.delete.response-message',
    section: '4.3',
    level: 'must',
    summary: 'A 200 role delete answers {status, data: {message}} with a string message.',
  },
  {
    id: 'roles.delete.users-lose-role',
    section: '4.3',
    level: 'must',
    summary: 'Once a role is deleted, the users that held it have no role.',
  },
  {
    id: 'roles.delete.twice',
    section: '4.3',
    level: 'unspecified',
    summary: 'What a second delete of the same role answers is left open.',
    decision: "404 NOT_FOUND with details.resource 'role'.",
  },
  {
    id: 'roles.create.hook',
    section: '4.3',
    level: 'unspecified',
    summary: 'The API offers no documented way to create a role.',
    decision:
      'Host hook: POST {hooks}/accounts/{organizationId}/projects/{projectId}/roles (hook name roles).',
  },

  // §4.4 register organization
  {
    id: 'orgs.register.path',
    section: '4.4',
    level: 'must',
    summary: 'POST /v1/api/projects/register-organization registers a project organization.',
  },
  {
    id: 'orgs.register.body-fields',
    section: '4.4',
    level: 'must',
    summary: 'The body takes name (non-empty), projectId (UUID), apiKey and organizationId (UUID).',
  },
  {
    id: 'orgs.register.properties-optional',
    section: '4.4',
    level: 'must',
    summary: 'properties may be left out when registering an organization.',
  },
  {
    id: 'orgs.register.external-id-optional',
    section: '4.4',
    level: 'must',
    summary: 'externalId may be left out; when sent it is a non-empty string.',
  },
  {
    id: 'orgs.register.response-shape',
    section: '4.4',
    level: 'must',
    summary: 'A 200 answers {status, data: {projectOrganizationId (UUID), externalId (string)}}.',
  },
  {
    id: 'orgs.register.required-fields',
    section: '4.4',
    level: 'unspecified',
    summary: 'Which register-organization fields are mandatory is left open.',
    decision:
      'name (non-empty) and projectId are required; properties defaults to {}; externalId is optional.',
  },
  {
    id: 'orgs.register.external-id-upsert',
    section: '4.4',
    level: 'unspecified',
    summary: 'What registering an externalId that the project already has does is left open.',
    decision:
      'It updates that organization (name and properties replaced) and answers 200 with its id; without externalId each call creates a new one.',
  },
  {
    id: 'orgs.register.external-id-echo',
    section: '4.4',
    level: 'unspecified',
    summary: 'The externalId answered when none was sent is left open.',
    decision:
      'The answer echoes the externalId sent, or the projectOrganizationId itself when none was sent.',
  },

  // §4.5 register user
  {
    id: 'users.register.path',
    section: '4.5',
    level: 'must',
    summary: 'POST /v1/api/projects/register-user registers a project user.',
  },
  {
    id: 'users.register.body-fields',
    section: '4.5',
    level: 'must',
    summary:
      'The body takes name, properties, projectId, userRoleId, projectOrganizationId, apiKey, organizationId and userId.',
  },
  {
    id: 'users.register.organization-by-external-id',
    section: '4.5',
    level: 'must',
    summary:
      'projectOrganizationId accepts the service UUID or the externalId of the organization.',
  },
  {
    id: 'users.register.user-id-supplied',
    section: '4.5',
    level: 'must',
    summary: 'A userId sent at registration becomes the id of the user.',
  },
  {
    id: 'users.register.user-id-generated',
    section: '4.5',
    level: 'must',
    summary: 'Without userId the service makes up a UUID for the user.',
  },
  {
    id: 'users.register.response-shape',
    section: '4.5',
    level: 'must',
    summary: 'A 200 answers {status, data: {message (string), userId (UUID)}}.',
  },
  {
    id: 'users.register.no-token',
    section: '4.5',
    level: 'must',
    summary: 'Registering a user returns no token; one is requested separately.',
  },
  {
    id: 'users.register.required-fields',
    section: '4.5',
    level: 'unspecified',
    summary: 'Which register-user fields are mandatory is left open.',
    decision:
      'projectId and name (any string) are required; properties defaults to {}; no userRoleId means no role; no projectOrganizationId means none.',
  },
  {
    id: 'users.register.user-id-reuse',
    section: '4.5',
    level: 'unspecified',
    summary: 'What registering a userId that already exists in the project does is left open.',
    decision:
      'The user is replaced with what is sent (absent fields cleared) and the message says it was updated; 200.',
  },
  {
    id: 'users.register.user-id-conflict',
    section: '4.5',
    level: 'unspecified',
    summary: "Registering a userId held in another of the account's projects has no stated answer.",
    decision: 'userIds are unique per account: 409 CONFLICT.',
  },
  {
    id: 'users.register.unknown-references',
    section: '4.5',
    level: 'unspecified',
    summary:
      'The answer to an unknown or foreign userRoleId or projectOrganizationId is left open.',
    decision:
      'A reference that is unknown or belongs to another project: 404 NOT_FOUND with details.field naming it.',
  },

  // §4.6 update user
  {
    id: 'users.update.path',
    section: '4.6',
    level: 'must',
    summary: 'PUT /v1/api/projects/{projectId}/users/{projectUserId} updates a project user.',
  },
  {
    id: 'users.update.name-required',
    section: '4.6',
    level: 'must',
    summary: 'A user update must carry a non-empty name.',
  },
  {
    id: 'users.update.properties-replace',
    section: '4.6',
    level: 'must',
    summary: 'properties in a user update takes the place of the stored properties (no merge).',
  },
  {
    id: 'users.update.payload-alias',
    section: '4.6',
    level: 'must',
    summary: 'The deprecated payload field is still accepted in place of properties.',
  },
  {
    id: 'users.update.payload-and-properties',
    section: '4.6',
    level: 'unspecified',
    summary: 'What happens when both payload and properties are sent is left open.',
    decision:
      'Sending both is a 400 VALIDATION_ERROR; payload is used only when properties is absent.',
  },
  {
    id: 'users.update.role-null-removes',
    section: '4.6',
    level: 'must',
    summary: 'userRoleId null in a user update removes the role.',
  },
  {
    id: 'users.update.role-set',
    section: '4.6',
    level: 'must',
    summary: 'A userRoleId UUID in a user update assigns that role.',
  },
  {
    id: 'users.update.organization-nullable',
    section: '4.6',
    level: 'must',
    summary: 'projectOrganizationId in a user update is a UUID or null.',
  },
  {
    id: 'users.update.organization-external-id',
    section: '4.6',
    level: 'unspecified',
    summary:
      'Whether the user update also resolves an externalId (typed UUID here, §2.3 says resolve) is left open.',
    decision:
      'It does: the service UUID or an externalId of the project, resolved as register-user does; null detaches.',
  },
  {
    id: 'users.update.absent-fields-unchanged',
    section: '4.6',
    level: 'unspecified',
    summary:
      'Whether leaving out userRoleId or projectOrganizationId changes anything is left open.',
    decision: 'Absent means unchanged; null means no role or detached from the organization.',
  },
  {
    id: 'users.update.response-envelope',
    section: '4.6',
    level: 'must',
    summary: "A 200 user update answers {status: 'success', data: object}.",
  },
  {
    id: 'users.update.response-fields',
    section: '4.6',
    level: 'unspecified',
    summary: 'The fields of the user update data object are left open.',
    decision:
      'data is the user: {id, name, properties, userRoleId, projectOrganizationId, projectId}.',
  },

  // §4.7 user token
  {
    id: 'tokens.user-token.path',
    section: '4.7',
    level: 'must',
    summary: 'POST /v1/api/projects/user-token issues a project-user token.',
  },
  {
    id: 'tokens.user-token.user-id-required',
    section: '4.7',
    level: 'must',
    summary: 'userId is mandatory and names a project user registered before.',
  },
  {
    id: 'tokens.user-token.body-credentials',
    section: '4.7',
    level: 'must',
    summary: 'The user-token body takes apiKey (non-empty) and organizationId (UUID).',
  },
  {
    id: 'tokens.expiration.enum',
    section: '4.7',
    level: 'must',
    summary:
      'expiration accepts only the nine listed durations, 5m through 7d; anything else is refused.',
  },
  {
    id: 'tokens.expiration.default-1h',
    section: '4.7',
    level: 'must',
    summary: 'Without expiration a token lives one hour.',
  },
  {
    id: 'tokens.user-token.response-shape',
    section: '4.7',
    level: 'must',
    summary: 'A 200 answers {status, data: {token, expiresAt}}.',
  },
  {
    id: 'tokens.user-token.from-stored-user',
    section: '4.7',
    level: 'must',
    summary:
      'The token reflects what is stored for the user (role, organization, properties) at issue time.',
  },
  {
    id: 'tokens.user-token.properties-after-update',
    section: '4.7',
    level: 'unspecified',
    summary:
      'Whether a token issued before a properties update still reaches the rows of its issue-time properties is left open.',
    decision:
      'It does: a token carries the properties of its issue time; an update reaches the rows of the tokens issued after it.',
  },
  {
    id: 'tokens.user-token.unknown-user',
    section: '4.7',
    level: 'unspecified',
    summary: 'The answer for a userId that is not registered is left open.',
    decision: "404 NOT_FOUND with details.resource 'user' (also for a user of another account).",
  },

  // §4.8 embed token
  {
    id: 'tokens.embed-token.path',
    section: '4.8',
    level: 'must',
    summary: 'POST /v1/api/projects/embed-token issues a token for an embedded session.',
  },
  {
    id: 'tokens.embed-token.project-id-required',
    section: '4.8',
    level: 'must',
    summary: 'projectId (UUID) is mandatory: the project the person signs into.',
  },
  {
    id: 'tokens.embed-token.organization-required',
    section: '4.8',
    level: 'must',
    summary:
      'The organization object, describing the customer as a project organization, is mandatory.',
  },
  {
    id: 'tokens.embed-token.user-required',
    section: '4.8',
    level: 'must',
    summary:
      'The user object, describing the person signing in, is mandatory and holds userRoleId.',
  },
  {
    id: 'tokens.embed-token.expiration',
    section: '4.8',
    level: 'must',
    summary: 'embed-token takes the same expiration values as user-token, one hour by default.',
  },
  {
    id: 'tokens.embed-token.response-envelope',
    section: '4.8',
    level: 'must',
    summary: "A 200 answers {status: 'success', data: object}.",
  },
  {
    id: 'tokens.embed-token.body-shape',
    section: '4.8',
    level: 'unspecified',
    summary: 'The fields inside organization and user, apart from user.userRoleId, are left open.',
    decision:
      'organization {externalId (required, non-empty), name?, properties?}; user {id? (UUID), name, properties?, userRoleId? (UUID or null)}.',
  },
  {
    id: 'tokens.embed-token.upserts',
    section: '4.8',
    level: 'unspecified',
    summary:
      'Whether embed-token updates an organization and a user the project already holds is left open.',
    decision:
      'Updates them: the organization found by externalId and the user found by id take the fields the body gives (the others are kept), the user is attached to the organization, then the token is issued.',
  },
  {
    id: 'tokens.embed-token.creates',
    section: '4.8',
    level: 'unspecified',
    summary:
      'Whether embed-token signs in an organization or a user the project does not hold yet is left open.',
    decision:
      'Creates them: an organization unknown by externalId (it then needs a name) and a user unknown by id or sent without one, attached to that organization, then issues the token.',
  },
  {
    id: 'tokens.embed-token.response-fields',
    section: '4.8',
    level: 'unspecified',
    summary: 'The fields of the embed-token data object are left open.',
    decision: 'data is {token, expiresAt, userId, projectOrganizationId}.',
  },

  // §4.9 register tenant
  {
    id: 'tenants.register.path',
    section: '4.9',
    level: 'must',
    summary: 'POST /v1/api/tenant/register-tenant registers a tenant and answers a token.',
  },
  {
    id: 'tenants.register.body-concepts',
    section: '4.9',
    level: 'must',
    summary:
      'The body conveys key, name, split columns and values, schema, permissions, connection override, metadata, expiration.',
  },
  {
    id: 'tenants.register.field-names',
    section: '4.9',
    level: 'unspecified',
    summary: 'The exact field names of the register-tenant body are left open.',
    decision:
      'apiKey, organizationId, name, tenantColumns, tenantSchema, uniqueKey (deprecated), permissions, connectionOverride, metadata, expiration (enum, 1h).',
  },
  {
    id: 'tenants.register.split-required',
    section: '4.9',
    level: 'unspecified',
    summary: 'Whether a tenant can be registered with nothing to split on is left open.',
    decision:
      'At least one of tenantColumns, tenantSchema or uniqueKey is required, else 400 VALIDATION_ERROR.',
  },
  {
    id: 'tenants.register.identity',
    section: '4.9',
    level: 'unspecified',
    summary: 'When two registrations name the same tenant is left open.',
    decision:
      'Identity is uniqueKey when given, otherwise canonical JSON of {tenantColumns, tenantSchema}; equal identity, equal tenantId.',
  },
  {
    id: 'tenants.register.response-shape',
    section: '4.9',
    level: 'must',
    summary: "A 200 answers {status: 'success', data: {message, token}} where token is a JWT.",
  },
  {
    id: 'tenants.token.claims',
    section: '4.9',
    level: 'unspecified',
    summary: 'The content of a tenant JWT is left open.',
    decision:
      "Claims kind 'tenant', sub tenantId, org, tkey (tenant identity), perm, meta and name; data.message is a short sentence.",
  },
  {
    id: 'tenants.register.after-finalize-project-user-token',
    section: '4.9',
    level: 'must',
    summary:
      'Once migration is finalized, register-tenant answers a project-user token for the same person.',
  },
  {
    id: 'tenants.migration.mapping',
    section: '4.9',
    level: 'unspecified',
    summary: 'How tenants become project users at migration is left open.',
    decision:
      "At finalize each tenant of the organization maps to a project user with a deterministic id, in the organization's migration project.",
  },
]);
