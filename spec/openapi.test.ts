// Structural checks of the service contract (spec/openapi.yaml) that redocly's rules do not
// cover: every operation is traced to a section of the document, every endpoint the document
// lists is present, and errors always use the §7 envelope.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

interface Ref {
  $ref: string;
}
interface MediaType {
  schema?: Ref | Record<string, unknown>;
  example?: { error?: { code?: string } };
}
interface ResponseObject {
  description: string;
  content?: Record<string, MediaType>;
}
interface Operation {
  operationId?: string;
  'x-eac-section'?: string;
  'x-eac-unspecified'?: string;
  'x-eac-document-version'?: string;
  responses?: Record<string, Ref | ResponseObject>;
}
interface SchemaObject {
  enum?: unknown[];
  pattern?: string;
}
interface OpenApiDocument {
  info: { version: string };
  paths: Record<string, Record<string, unknown>>;
  components: {
    schemas: Record<string, SchemaObject>;
    responses: Record<string, ResponseObject>;
  };
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'] as const;

const doc = parse(
  readFileSync(new URL('./openapi.yaml', import.meta.url), 'utf8'),
) as OpenApiDocument;

/** Every operation of the contract as [method, path, operation]. */
const operations: [string, string, Operation][] = Object.entries(doc.paths).flatMap(
  ([path, item]) =>
    METHODS.filter((method) => item[method] !== undefined).map(
      (method): [string, string, Operation] => [method, path, item[method] as Operation],
    ),
);

function findOperation(method: string, path: string): Operation | undefined {
  return operations.find(([m, p]) => m === method && p === path)?.[2];
}

function resolveResponse(response: Ref | ResponseObject): ResponseObject {
  if (!('$ref' in response)) return response;
  const name = response.$ref.replace('#/components/responses/', '');
  const resolved = doc.components.responses[name];
  if (resolved === undefined) throw new Error(`unresolved response ${response.$ref}`);
  return resolved;
}

// §4.1–§4.16: every method and path the document lists, with the section that lists it.
const documentEndpoints: readonly (readonly [method: string, path: string, section: string])[] = [
  ['put', '/v1/api/projects/{projectId}/user-roles/{projectUserRoleId}', '4.1'],
  ['get', '/v1/api/projects/{projectId}/user-roles', '4.2'],
  ['delete', '/v1/api/projects/{projectId}/user-roles/{projectUserRoleId}', '4.3'],
  ['post', '/v1/api/projects/register-organization', '4.4'],
  ['post', '/v1/api/projects/register-user', '4.5'],
  ['put', '/v1/api/projects/{projectId}/users/{projectUserId}', '4.6'],
  ['post', '/v1/api/projects/user-token', '4.7'],
  ['post', '/v1/api/projects/embed-token', '4.8'],
  ['post', '/v1/api/tenant/register-tenant', '4.9'],
  ['post', '/v1/api/dashboard/clone', '4.10'],
  ['post', '/v1/api/dashboard/append-charts-from', '4.11'],
  ['post', '/v1/api/dashboard/remove-charts', '4.12'],
  ['get', '/v1/api/dashboard/list-workspaces', '4.13'],
  ['post', '/v1/api/chart/save-from-chat', '4.14'],
  ['post', '/v1/api/project-agents/{agentId}/chat', '4.15'],
  ['get', '/v2/api/applications', '4.16'],
  ['get', '/v2/api/applications/{applicationId}/dashboards', '4.16'],
  ['post', '/v2/api/applications/{applicationId}/dashboards', '4.16'],
  ['post', '/v2/api/applications/{applicationId}/dashboards/{dashboardId}/clone', '4.16'],
  ['post', '/v2/api/applications/{applicationId}/dashboards/{dashboardId}/charts', '4.16'],
  [
    'delete',
    '/v2/api/applications/{applicationId}/dashboards/{dashboardId}/charts/{chartId}',
    '4.16',
  ],
  ['post', '/v2/api/applications/{applicationId}/dashboards/{dashboardId}/append-charts', '4.16'],
];

// Operations whose path the reference chose because the document gives none.
const decidedEndpoints: readonly (readonly [method: string, path: string])[] = [
  ['get', '/v2/api/dashboards/{dashboardId}/lookup'], // §4.16 look-up dashboard
  ['get', '/.well-known/jwks.json'], // decision tokens.claims
  ['post', '/v1/api/dashboard/create'], // §4.16 v1 create (dashboards.v1-shapes.not-shown)
  ['post', '/v1/api/dashboard/add-charts'], // §4.16 v1 add-charts
  ['get', '/v1/api/dashboard/list-workspace-dashboards'], // §9 list-workspace-dashboards
];

// §7, §9: v1 dashboard writes answer 410 MIGRATED_TO_V2 after finalize.
const v1DashboardWrites = [
  '/v1/api/dashboard/clone',
  '/v1/api/dashboard/append-charts-from',
  '/v1/api/dashboard/remove-charts',
];

const requiredComponents = [
  'Uuid',
  'Expiration',
  'ErrorEnvelope',
  'ProjectUserRole',
  'RolePermissions',
  'UpdateRoleBody',
  'ListRolesResponse',
  'DeleteRoleResponse',
  'RegisterOrganizationBody',
  'RegisterOrganizationResponse',
  'RegisterUserBody',
  'RegisterUserResponse',
  'UpdateUserBody',
  'UpdateUserResponse',
  'UserTokenBody',
  'Token',
  'TokenResponse',
  'EmbedTokenBody',
  'EmbedTokenResponse',
  'RegisterTenantBody',
  'RegisterTenantResponse',
  'CloneDashboardBody',
  'CloneDashboardResponse',
  'AppendChartsFromBody',
  'RemoveChartsBody',
  'ListWorkspacesResponse',
  'SaveFromChatBody',
  'SaveFromChatResponse',
  'ChatBody',
  'ChartConfig',
  'ChatResult',
  'ChatEvent',
  'Application',
  'V2Dashboard',
];

describe('spec/openapi.yaml', () => {
  it('gives every operation an operationId and the document section it implements', () => {
    expect(operations.length).toBeGreaterThan(0);
    for (const [method, path, operation] of operations) {
      const where = `${method.toUpperCase()} ${path}`;
      expect(operation.operationId, `${where} needs an operationId`).toMatch(/^[a-z][a-zA-Z0-9]*$/);
      expect(operation['x-eac-section'], `${where} needs x-eac-section`).toMatch(/^\d+(\.\d+)?$/);
    }
  });

  it.each(documentEndpoints)('describes %s %s (§%s)', (method, path, section) => {
    const operation = findOperation(method, path);
    expect(operation, `${method.toUpperCase()} ${path} is missing`).toBeDefined();
    expect(operation?.['x-eac-section']).toBe(section);
  });

  it.each(decidedEndpoints)('marks the reference-chosen %s %s as unspecified', (method, path) => {
    const operation = findOperation(method, path);
    expect(operation, `${method.toUpperCase()} ${path} is missing`).toBeDefined();
    expect(operation?.['x-eac-unspecified']).toEqual(expect.any(String));
  });

  it('describes no operation beyond the listed and decided ones', () => {
    const known = new Set(
      [...documentEndpoints, ...decidedEndpoints].map(([method, path]) => `${method} ${path}`),
    );
    const extra = operations
      .map(([method, path]) => `${method} ${path}`)
      .filter((key) => !known.has(key));
    expect(extra, 'add new operations to the expected lists').toEqual([]);
  });

  it('answers every error status with the §7 ErrorEnvelope', () => {
    for (const [method, path, operation] of operations) {
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        if (!/^[45]/.test(status)) continue;
        const media = resolveResponse(response).content?.['application/json'];
        expect(
          media?.schema,
          `${method.toUpperCase()} ${path} ${status} must use ErrorEnvelope`,
        ).toEqual({ $ref: '#/components/schemas/ErrorEnvelope' });
      }
    }
  });

  it.each(v1DashboardWrites)('answers 410 MIGRATED_TO_V2 on POST %s (§7, §9)', (path) => {
    const response = findOperation('post', path)?.responses?.['410'];
    expect(response, `POST ${path} lacks a 410 response`).toBeDefined();
    if (response === undefined) return;
    expect(resolveResponse(response).content?.['application/json']?.example?.error?.code).toBe(
      'MIGRATED_TO_V2',
    );
  });

  it('carries the document version 1.5.0 on the role endpoints only (§9)', () => {
    const versioned = operations
      .filter(([, , operation]) => operation['x-eac-document-version'] !== undefined)
      .map(([, , operation]) => [operation['x-eac-section'], operation['x-eac-document-version']]);
    expect(versioned.sort()).toEqual([
      ['4.1', '1.5.0'],
      ['4.2', '1.5.0'],
      ['4.3', '1.5.0'],
    ]);
    expect(doc.info.version).toBe('0.1.0');
  });

  it('defines the components the zod schemas are checked against', () => {
    const missing = requiredComponents.filter((name) => doc.components.schemas[name] === undefined);
    expect(missing).toEqual([]);
  });

  it('limits Expiration to exactly the nine lifetimes of §4.7', () => {
    expect(doc.components.schemas.Expiration?.enum).toEqual([
      '5m',
      '15m',
      '30m',
      '1h',
      '2h',
      '6h',
      '12h',
      '24h',
      '7d',
    ]);
  });

  it('constrains Uuid to the 8-4-4-4-12 hexadecimal pattern', () => {
    const pattern = doc.components.schemas.Uuid?.pattern;
    expect(pattern).toBe(
      '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
    );
    const uuid = new RegExp(pattern ?? '(?!)');
    expect(uuid.test('0f8fad5b-d9cb-469f-a165-70867728950e')).toBe(true);
    expect(uuid.test('0F8FAD5B-D9CB-469F-A165-70867728950E')).toBe(true);
    expect(uuid.test('0f8fad5bd9cb469fa16570867728950e')).toBe(false);
    expect(uuid.test('0f8fad5b-d9cb-469f-a165-70867728950g')).toBe(false);
    expect(uuid.test(' 0f8fad5b-d9cb-469f-a165-70867728950e')).toBe(false);
  });
});
