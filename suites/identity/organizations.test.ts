import { expect } from 'vitest';
import { RegisterOrganizationResponse } from '../../spec/schemas/organization.ts';
import { externalId, organizationName } from '../harness/builders.ts';
import {
  buildWorld,
  registerOrganization,
  registerUser,
  type World,
} from '../harness/given/accounts.ts';
import { conformance, probe, type Conformance } from '../harness/conformance.ts';
import { REGISTER_ORGANIZATION, REGISTER_USER, userPath } from '../harness/paths.ts';
import { sendWatched } from '../harness/credential-table.ts';
import { REGISTER_ORGANIZATION_EP } from '../harness/endpoints.ts';
import { organizationExists, storedReference, updateUserShowing } from '../harness/readback.ts';
import { shownUser } from '../harness/records.ts';
import {
  describeAnswer,
  expectClientError,
  expectSuccess,
  refusedAs,
  statusAndCode,
} from '../harness/expect.ts';

// §2.3, §4.4: registering project organizations, and externalIds standing for their UUIDs.
const needs = ['accounts', 'projects'] as const;
const Registered = RegisterOrganizationResponse.shape.data;
/** Reading a user from the update answer leans on decision users.update.response-fields (§4.6). */
const SHOWN = 'users.update.response-fields';

function register(t: Conformance, w: World, fields: Record<string, unknown>) {
  return t.http.post(REGISTER_ORGANIZATION, { ...w.creds(), projectId: w.projectId, ...fields });
}

/** The organization a user is attached to, read back as readback.ts storedReference can. */
function organizationOfUser(t: Conformance, w: World, userId: string, name: string) {
  return storedReference(t, w, { userId, name }, 'projectOrganizationId');
}

conformance(
  [
    'orgs.register.path',
    'orgs.register.response-shape',
    'resources.organization.id-issued',
    'orgs.register.body-fields',
  ],
  'registering an organization answers a service UUID and the externalId',
  async (t) => {
    const w = await buildWorld(t);
    const ext = externalId(t.faker);
    const res = await register(t, w, {
      name: organizationName(t.faker),
      externalId: ext,
      properties: { region: 'eu' },
    });
    const data = expectSuccess(res, Registered, 'registering an organization');
    expect(data.externalId, 'the answer carries the externalId sent').toBe(ext);
  },
  { needs },
);

conformance(
  [
    'orgs.register.properties-optional',
    'orgs.register.external-id-optional',
    'resources.organization.external-id-optional',
  ],
  'an organization can be registered with neither properties nor externalId',
  async (t) => {
    const w = await buildWorld(t);
    const res = await register(t, w, { name: organizationName(t.faker) });
    expectSuccess(res, Registered, 'registering with name and project only');
  },
  { needs },
);

conformance(
  [
    'limits.name.min-length',
    'resources.organization.name',
    'orgs.register.external-id-optional',
    'resources.organization.external-id-optional',
  ],
  'an empty name or an empty externalId is refused',
  async (t) => {
    const w = await buildWorld(t);
    for (const fields of [{ name: '' }, { name: organizationName(t.faker), externalId: '' }]) {
      const res = await register(t, w, fields);
      expectClientError(res, `registering ${JSON.stringify(fields)}`);
    }
  },
  { needs },
);

conformance(
  ['limits.name.min-length', 'errors.refused.changes-nothing'],
  'a register-organization refused for its empty name registers nothing',
  async (t) => {
    const w = await buildWorld(t);
    const ext = externalId(t.faker);
    const res = await sendWatched(
      t,
      {
        endpoint: REGISTER_ORGANIZATION_EP,
        path: REGISTER_ORGANIZATION,
        fields: { projectId: w.projectId, name: '', externalId: ext },
      },
      { body: w.creds() },
      { reads: [() => organizationExists(t, w, ext)], accounts: [w] },
      'a register-organization with an empty name',
    );
    expectClientError(res, 'registering with an empty name');
  },
  { needs },
);

conformance(
  ['users.register.organization-by-external-id', 'resources.organization.external-id-resolves'],
  'register-user resolves an externalId to the organization\u2019s service UUID',
  async (t) => {
    const w = await buildWorld(t);
    const org = await registerOrganization(t, w);
    const user = await registerUser(t, w, { projectOrganizationId: org.externalId });
    const attached = await organizationOfUser(t, w, user.userId, user.body.name);
    expect(
      attached,
      'the user must be attached to the organization\u2019s UUID, not the externalId',
    ).toBe(org.projectOrganizationId);
  },
  { needs },
);

conformance(
  ['users.register.organization-by-external-id'],
  'register-user also takes the organization\u2019s service UUID',
  async (t) => {
    const w = await buildWorld(t);
    const org = await registerOrganization(t, w);
    const user = await registerUser(t, w, { projectOrganizationId: org.projectOrganizationId });
    expect(await organizationOfUser(t, w, user.userId, user.body.name), 'attached by UUID').toBe(
      org.projectOrganizationId,
    );
  },
  { needs },
);

probe(
  ['orgs.register.required-fields'],
  'which register-organization fields are required',
  async (t) => {
    const w = await buildWorld(t);
    const noName = await t.http.post(REGISTER_ORGANIZATION, {
      ...w.creds(),
      projectId: w.projectId,
    });
    const noProject = await t.http.post(REGISTER_ORGANIZATION, {
      ...w.creds(),
      name: organizationName(t.faker),
    });
    t.observe(
      `without name: ${statusAndCode(noName)}; without projectId: ${statusAndCode(noProject)}`,
      statusAndCode(noName) === '400 VALIDATION_ERROR' &&
        statusAndCode(noProject) === '400 VALIDATION_ERROR',
    );
  },
  { needs },
);

probe(
  ['orgs.register.external-id-upsert'],
  'registering an externalId the project already has',
  async (t) => {
    const w = await buildWorld(t);
    const ext = externalId(t.faker);
    const first = expectSuccess(
      await register(t, w, { name: 'First name', externalId: ext }),
      Registered,
      'first',
    );
    const again = await register(t, w, {
      name: 'Second name',
      externalId: ext,
      properties: { tier: 'gold' },
    });
    const second = Registered.safeParse((again.body as { data?: unknown }).data);
    const same =
      second.success && second.data.projectOrganizationId === first.projectOrganizationId;
    t.observe(
      `${statusAndCode(again)}, ${same ? 'same organization' : 'another organization'}`,
      again.status === 200 && same,
    );
  },
  { needs },
);

probe(
  ['orgs.register.external-id-upsert'],
  'registering twice without an externalId',
  async (t) => {
    const w = await buildWorld(t);
    const name = organizationName(t.faker);
    const a = expectSuccess(await register(t, w, { name }), Registered, 'first');
    const b = expectSuccess(await register(t, w, { name }), Registered, 'second');
    const distinct = a.projectOrganizationId !== b.projectOrganizationId;
    t.observe(distinct ? 'two organizations' : 'one organization', distinct);
  },
  { needs },
);

probe(
  ['orgs.register.external-id-echo'],
  'the externalId answered when none was sent',
  async (t) => {
    const w = await buildWorld(t);
    const data = expectSuccess(
      await register(t, w, { name: organizationName(t.faker) }),
      Registered,
      'registering',
    );
    t.observe(
      data.externalId === data.projectOrganizationId
        ? 'the projectOrganizationId'
        : `${JSON.stringify(data.externalId)}`,
      data.externalId === data.projectOrganizationId,
    );
  },
  { needs },
);

probe(
  ['users.register.unknown-references'],
  'an organization identifier that matches nothing in the project',
  async (t) => {
    const w = await buildWorld(t);
    const other = await buildWorld(t);
    const foreign = await registerOrganization(t, other);
    const body = { ...w.creds(), projectId: w.projectId, name: 'Nobody' };
    const unknownExt = await t.http.post(REGISTER_USER, {
      ...body,
      projectOrganizationId: 'ext-missing',
    });
    const foreignId = await t.http.post(REGISTER_USER, {
      ...body,
      projectOrganizationId: foreign.projectOrganizationId,
    });
    // That another account's organization is refused at all is checked in isolation.test.ts
    // (security clause auth.isolation.other-account-refused); here only the answer is recorded.
    const decided = { resource: 'projectOrganization', field: 'projectOrganizationId' };
    t.observe(
      `unknown externalId: ${describeAnswer(unknownExt)}; another account\u2019s UUID: ${describeAnswer(foreignId)}`,
      refusedAs(unknownExt, 404, 'NOT_FOUND', decided) &&
        refusedAs(foreignId, 404, 'NOT_FOUND', decided),
    );
  },
  { needs },
);

probe(
  ['orgs.identifier.resolution-order'],
  'an externalId that is the service UUID of another organization',
  async (t) => {
    const w = await buildWorld(t);
    const first = await registerOrganization(t, w);
    const res = await t.http.post(REGISTER_ORGANIZATION, {
      ...w.creds(),
      projectId: w.projectId,
      name: organizationName(t.faker),
      externalId: first.projectOrganizationId,
    });
    // Whatever the answer, the UUID must still name the first organization: a user attached
    // by it (§4.6 types the update's projectOrganizationId as a UUID) is in the first one.
    const user = await registerUser(t, w);
    const attached = (
      await updateUserShowing(
        t,
        w,
        user.userId,
        { name: user.body.name, projectOrganizationId: first.projectOrganizationId },
        'projectOrganizationId',
      )
    )['projectOrganizationId'];
    expect(attached, 'a service UUID keeps naming its own organization').toBe(
      first.projectOrganizationId,
    );
    t.observe(describeAnswer(res), refusedAs(res, 409, 'CONFLICT', { field: 'externalId' }));
  },
  { needs, relies: [SHOWN] },
);

probe(
  ['users.update.organization-external-id'],
  'a user update naming the organization by its externalId',
  async (t) => {
    const w = await buildWorld(t);
    const org = await registerOrganization(t, w);
    const user = await registerUser(t, w);
    const res = await t.http.put(userPath(w, user.userId), {
      ...w.creds(),
      name: user.body.name,
      projectOrganizationId: org.externalId,
    });
    const shown = shownUser(t, res.body)['projectOrganizationId'];
    t.observe(
      res.status === 200 ? `resolved to ${String(shown)}` : describeAnswer(res),
      res.status === 200 && shown === org.projectOrganizationId,
    );
  },
  { needs },
);
