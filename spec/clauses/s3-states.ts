import { defineClauses } from './types.ts';

// §3: the state moves the document shows for users, roles and the migration.
export const s3 = defineClauses([
  {
    id: 'states.lifecycle.not-shown',
    section: '3',
    level: 'unspecified',
    summary: 'No lifecycle states are given for users, charts, dashboards or organizations.',
    decision:
      'No lifecycle states beyond existence: a resource exists from creation on; through the API only roles can be deleted.',
  },
  {
    id: 'states.user.role-deleted',
    section: '3',
    level: 'must',
    summary: 'Deleting the role a user holds leaves that user with no role, hence view-only.',
  },
  {
    id: 'states.role.delete-removes',
    section: '3',
    level: 'must',
    summary: 'A deleted role is gone: it no longer appears in the role list.',
  },
  {
    id: 'states.user.role-cleared',
    section: '3',
    level: 'must',
    summary: 'Updating a user with userRoleId null takes the role away (view-only).',
  },
  {
    id: 'states.user.role-cleared-next-token',
    section: '3',
    level: 'must',
    summary: 'Losing the role shows up in the next token issued for that user.',
  },
  {
    id: 'states.user.role-assigned',
    section: '3',
    level: 'must',
    summary: 'Updating a user with a userRoleId taken from the role list gives the user that role.',
  },
  {
    id: 'states.user.role-assigned-next-token',
    section: '3',
    level: 'must',
    summary: 'A newly assigned role shows up in the next token issued for that user.',
  },
  {
    id: 'states.role.update-replaces',
    section: '3',
    level: 'must',
    summary: 'Updating role permissions keeps the same role and swaps its whole permission set.',
  },
  {
    id: 'states.role.update-next-token',
    section: '3',
    level: 'must',
    summary: 'Users of an updated role get the new permissions in their next token.',
  },
  {
    id: 'states.role.update-immediate-api-checks',
    section: '3',
    level: 'must',
    summary:
      'Permission checks on dashboard writes use the current role right away, not the token copy.',
  },
  {
    id: 'dashboards.tenant-permissions.read-at-write',
    section: '3',
    level: 'unspecified',
    summary:
      "Whether a change of a tenant's editing permissions reaches tokens already issued is left open (§3 says so for roles only).",
    decision:
      'Registering the same tenant again replaces its permissions, and the write checks read the stored permissions at each call, never the token: a token issued before the change follows the new permissions at once.',
  },
  {
    id: 'states.role.issued-token-unchanged',
    section: '3',
    level: 'unspecified',
    summary: 'What a token issued before a role change carries afterwards is left open.',
    decision:
      'A token keeps the permissions it was issued with in its claims (hub pages use them); API dashboard-write checks read the live role.',
  },
  {
    id: 'states.migration.finalize',
    section: '3',
    level: 'must',
    summary:
      'Finalizing moves an organization from before-finalize to after-finalize, outside the public API.',
  },
  {
    id: 'states.migration.finalize-hook',
    section: '3',
    level: 'unspecified',
    summary: 'How a migration finalize is triggered is left to the service team.',
    decision:
      'Host hook: POST {hooks}/accounts/{organizationId}/migration/finalize (hook name migration).',
  },
  {
    id: 'states.migration.one-way',
    section: '3',
    level: 'unspecified',
    summary: 'Whether a finalized migration can be undone or repeated is left open.',
    decision:
      'Finalize is one-way: neither the API nor the hooks bring an organization back to before-finalize.',
  },
]);
