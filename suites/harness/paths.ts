/** Paths of the endpoints the suites call (§4), in one place. */
interface InProject {
  readonly projectId: string;
}

export const rolesPath = (w: InProject) => `/v1/api/projects/${w.projectId}/user-roles`;
export const rolePath = (w: InProject, roleId: string) => `${rolesPath(w)}/${roleId}`;
export const userPath = (w: InProject, userId: string) =>
  `/v1/api/projects/${w.projectId}/users/${userId}`;

export const REGISTER_ORGANIZATION = '/v1/api/projects/register-organization';
export const REGISTER_USER = '/v1/api/projects/register-user';
export const USER_TOKEN = '/v1/api/projects/user-token';
export const EMBED_TOKEN = '/v1/api/projects/embed-token';
export const REGISTER_TENANT = '/v1/api/tenant/register-tenant';
export const APPLICATIONS = '/v2/api/applications';
