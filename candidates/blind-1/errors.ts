/** The §7 error envelope and the codes this service answers with. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  body(): {
    status: 'error';
    error: { message: string; code: string; details: Record<string, unknown> };
  } {
    return {
      status: 'error',
      error: { message: this.message, code: this.code, details: this.details },
    };
  }
}

export const invalid = (message: string, details: Record<string, unknown> = {}): ApiError =>
  new ApiError(400, 'VALIDATION_ERROR', message, details);

export const unauthorized = (reason: string, message = 'Authentication failed.'): ApiError =>
  new ApiError(401, 'UNAUTHORIZED', message, { reason });

export const forbidden = (message: string, details: Record<string, unknown> = {}): ApiError =>
  new ApiError(403, 'FORBIDDEN', message, details);

export const notFound = (resource: string, field?: string): ApiError =>
  new ApiError(404, 'NOT_FOUND', `No ${resource} with that id is visible to these credentials.`, {
    resource,
    ...(field === undefined ? {} : { field }),
  });

export const conflict = (message: string, details: Record<string, unknown> = {}): ApiError =>
  new ApiError(409, 'CONFLICT', message, details);

export const sharedReadOnly = (dashboardId: string): ApiError =>
  new ApiError(
    409,
    'SHARED_DASHBOARD_READ_ONLY',
    'This dashboard is shared by the whole application and cannot be edited with a project-user token; clone it first and edit the copy.',
    { dashboardId },
  );

export const withoutOrganization = (projectUserId: string): ApiError =>
  new ApiError(
    403,
    'PROJECT_USER_WITHOUT_ORGANIZATION',
    'The project user belongs to no project organization, so it has no space to hold dashboards.',
    { projectUserId },
  );

export const tenantNotMigrated = (): ApiError =>
  new ApiError(
    401,
    'TENANT_NOT_MIGRATED',
    'This tenant token belongs to a tenant the migration has not mapped yet; request a new token from POST /v1/api/tenant/register-tenant.',
    { remedy: 'POST /v1/api/tenant/register-tenant' },
  );

export const migrated = (endpoint: string, extra: Record<string, unknown> = {}): ApiError =>
  new ApiError(
    410,
    'MIGRATED_TO_V2',
    `This organization has been migrated to v2; v1 dashboard writes are closed. Use ${endpoint} instead.`,
    { endpoint, ...extra },
  );
