import { mkdtemp, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOOK_NAMES } from '../spec/schemas/hooks.ts';
import { provisionedFor } from '../suites/harness/hooks.ts';
import { TargetSpec, type TargetWords } from './target-spec.ts';
import {
  DOCUMENT_ONLY_PROFILE,
  describe as describeError,
  readCredentials,
  readProfile,
  REFERENCE_PROFILE_FILE,
  resolveTarget,
  TargetError,
  handOverFromEnv,
} from './target.ts';

let server: Server;
let base: string;
let implementation = 'eac-reference';

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/__eac/capabilities') {
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          status: 'success',
          data: { implementation, version: '1', hooks: ['accounts'] },
        }),
      );
      return;
    }
    res.statusCode = req.url === '/broken/capabilities' ? 500 : 404;
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** resolveTarget on the words a person gives (read as target-spec.ts reads them), seed among them. */
const resolveWords = ({ seed, ...words }: TargetWords & { readonly seed: number }) =>
  resolveTarget(TargetSpec.parse(words), seed);

async function tempFile(content: string, extension = '.json'): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'eac-target-'));
  const file = path.join(dir, `file${extension}`);
  await writeFile(file, content);
  return file;
}

describe('resolveTarget with --target', () => {
  it('reads the capabilities and checks decisions for the reference', async () => {
    implementation = 'eac-reference';
    const { target, embedded } = await resolveWords({
      target: `${base}/`,
      hub: 'http://hub.example/',
      hooks: `${base}/__eac`,
      seed: 3,
    });
    expect(embedded).toBe(false);
    expect(target).toEqual({
      baseUrl: base,
      hubUrl: 'http://hub.example',
      hooksUrl: `${base}/__eac`,
      hooks: ['accounts'],
      implementation: 'eac-reference',
      checkDecisions: true,
      seed: 3,
      profile: await readProfile(REFERENCE_PROFILE_FILE),
    });
  });

  it('never takes the target for its hub: without --hub there is no hub address and no hub part', async () => {
    implementation = 'eac-reference';
    const reference = await readProfile(REFERENCE_PROFILE_FILE);
    expect(reference.serves).toContain('hub');
    const resolved = await resolveWords({ target: base, hooks: `${base}/__eac`, seed: 3 });
    expect('hubUrl' in resolved.target).toBe(false);
    expect(resolved.target.profile.serves).toEqual(reference.serves.filter((p) => p !== 'hub'));
    // The rest of the profile is the reference's own.
    expect(resolved.target.profile.shapes).toEqual(reference.shapes);
    // A hub at the target's own address is a hub given.
    const given = await resolveWords({ target: base, hub: base, seed: 3 });
    expect(given.target.hubUrl).toBe(base);
    expect(given.target.profile.serves).toEqual(DOCUMENT_ONLY_PROFILE.serves);
  });

  it('reads a YAML profile given with --profile and refuses a malformed one', async () => {
    const file = await tempFile('serves: [identity]\nshapes: {}\n', '.yaml');
    const { target } = await resolveWords({ target: base, seed: 1, profile: file });
    expect(target.profile.serves).toEqual(['identity']);
    await expect(
      resolveWords({
        target: base,
        seed: 1,
        profile: await tempFile('serves: [teleport]\n', '.yaml'),
      }),
    ).rejects.toThrow(/serves\.0/);
    await expect(resolveWords({ target: base, seed: 1, profile: '/no/such.yaml' })).rejects.toThrow(
      /cannot read the profile/,
    );
  });

  it('only records probes for another implementation, unless asked', async () => {
    implementation = 'acme';
    const plain = await resolveWords({ target: base, hooks: `${base}/__eac`, seed: 1 });
    expect(plain.target.checkDecisions).toBe(false);
    const asked = await resolveWords({
      target: base,
      hooks: `${base}/__eac`,
      seed: 1,
      checkDecisions: true,
    });
    expect(asked.target.checkDecisions).toBe(true);
  });

  it('has no hooks without --hooks', async () => {
    const { target } = await resolveWords({ target: base, hub: 'http://hub.example', seed: 1 });
    expect(target.hooks).toEqual([]);
    expect(target.hooksUrl).toBeUndefined();
    expect(target.hubUrl).toBe('http://hub.example');
  });

  it('fails clearly for an unreachable target, bad hooks or a non-http URL', async () => {
    const refused = resolveWords({ target: 'http://127.0.0.1:9', seed: 1 });
    await expect(refused).rejects.toThrow(/cannot reach the target at http:\/\/127\.0\.0\.1:9/);
    // The error code is said once, not as "ECONNREFUSED connect ECONNREFUSED".
    await expect(refused).rejects.toThrow(/9: connect ECONNREFUSED 127\.0\.0\.1:9$/);
    await expect(resolveWords({ target: base, hooks: `${base}/broken`, seed: 1 })).rejects.toThrow(
      /answered 500/,
    );
    await expect(resolveWords({ target: 'ftp://x', seed: 1 })).rejects.toBeInstanceOf(TargetError);
  });
});

describe('describe (an error in one line)', () => {
  it('says the code once, and the cause only when the message does not hold it', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), {
      code: 'ECONNREFUSED',
    });
    expect(describeError(refused)).toBe('connect ECONNREFUSED 127.0.0.1:9');
    const timeout = Object.assign(new Error('Headers Timeout Error'), {
      code: 'UND_ERR_HEADERS_TIMEOUT',
    });
    expect(describeError(timeout)).toBe('UND_ERR_HEADERS_TIMEOUT Headers Timeout Error');
    const fetchFailed = new Error('fetch failed', { cause: refused });
    expect(describeError(fetchFailed)).toBe('fetch failed: connect ECONNREFUSED 127.0.0.1:9');
    const same = new Error('connect ECONNREFUSED 127.0.0.1:9', { cause: refused });
    expect(describeError(same)).toBe('connect ECONNREFUSED 127.0.0.1:9');
  });
});

describe('readCredentials', () => {
  it('accepts the single-account shape and lists it as the one account', async () => {
    const file = await tempFile('{"organizationId":"org-1","userScopedKey":"k"}');
    expect(await readCredentials(file)).toEqual({
      organizationId: 'org-1',
      userScopedKey: 'k',
      accounts: [{ organizationId: 'org-1', userScopedKey: 'k' }],
    });
  });

  it('accepts several accounts with members, roles and room for later parts', async () => {
    const second = {
      organizationId: 'org-2',
      orgBoundKey: 'b2',
      projectId: 'p2',
      projects: ['p2', 'p3'],
      members: [{ userScopedKey: 'k', hubUserId: 'hub-1' }],
      roles: [
        { id: 'r1', permissions: { addChart: true } },
        { id: 'r2', projectId: 'p3', permissions: {} },
      ],
      applications: ['a1'],
      dashboards: ['d1'],
      agents: ['g1'],
      connections: ['c1'],
    };
    const file = await tempFile(
      JSON.stringify({ accounts: [{ organizationId: 'org-1', userScopedKey: 'k' }, second] }),
    );
    const read = await readCredentials(file);
    expect(read.organizationId, 'the first account also sits at the top level').toBe('org-1');
    expect(read.accounts).toEqual([{ organizationId: 'org-1', userScopedKey: 'k' }, second]);
  });

  it('puts a top-level account first when accounts are listed too, once', async () => {
    const file = await tempFile(
      JSON.stringify({
        organizationId: 'org-1',
        orgBoundKey: 'b',
        accounts: [{ organizationId: 'org-1', orgBoundKey: 'b' }, { organizationId: 'org-2' }],
      }),
    );
    expect((await readCredentials(file)).accounts.map((a) => a.organizationId)).toEqual([
      'org-1',
      'org-2',
    ]);
  });

  it('reads its own output back unchanged (the target crosses into workers as JSON)', async () => {
    const file = await tempFile(
      JSON.stringify({
        accounts: [{ organizationId: 'a' }, { organizationId: 'b', agents: ['x'] }],
      }),
    );
    const read = await readCredentials(file);
    expect(await readCredentials(await tempFile(JSON.stringify(read)))).toEqual(read);
  });

  it('stands in for the hooks it has data for, and no others', async () => {
    const single = await readCredentials(
      await tempFile('{"organizationId":"o","orgBoundKey":"b","projectId":"p"}'),
    );
    expect(HOOK_NAMES.filter((h) => provisionedFor(single, h))).toEqual(['accounts', 'projects']);
    const rich = await readCredentials(
      await tempFile(
        JSON.stringify({
          accounts: [
            { organizationId: 'o1', userScopedKey: 'k1' },
            {
              organizationId: 'o2',
              orgBoundKey: 'b2',
              members: [{ userScopedKey: 'k1' }],
              roles: [{ id: 'r', permissions: {} }],
            },
          ],
        }),
      ),
    );
    expect(HOOK_NAMES.filter((h) => provisionedFor(rich, h))).toEqual([
      'accounts',
      'members',
      'roles',
    ]);
    expect(provisionedFor(undefined, 'accounts')).toBe(false);
  });

  it('names the problem of a bad file', async () => {
    await expect(readCredentials(await tempFile('{nope'))).rejects.toThrow(/is not JSON/);
    await expect(readCredentials(await tempFile('{"userScopedKey":"k"}'))).rejects.toThrow(
      /organizationId/,
    );
    await expect(
      readCredentials(await tempFile('{"organizationId":"o","orgId":"x"}')),
    ).rejects.toThrow(/orgId/);
    await expect(readCredentials(await tempFile('{"accounts":[]}'))).rejects.toThrow(/accounts/);
    await expect(
      readCredentials(
        await tempFile(
          '{"accounts":[{"organizationId":"o","roles":[{"id":"r","permissions":{"x":1}}]}]}',
        ),
      ),
    ).rejects.toThrow(/accounts\.0\.roles\.0\.permissions/);
    await expect(readCredentials('/no/such/file.json')).rejects.toThrow(
      /cannot read the credentials file/,
    );
  });
});

describe('handOverFromEnv', () => {
  it('is undefined when unset and validates when set', () => {
    expect(handOverFromEnv(undefined)).toBeUndefined();
    const given = handOverFromEnv(
      JSON.stringify({
        target: { baseUrl: 'http://x/', hubUrl: 'http://x', seed: 4 },
        replayArgs: ['--seed', '4'],
        reportDir: '/r',
      }),
    );
    expect(given).toEqual({
      target: {
        baseUrl: 'http://x',
        hubUrl: 'http://x',
        hooks: [],
        checkDecisions: false,
        seed: 4,
        profile: expect.objectContaining({
          serves: expect.arrayContaining(['identity']) as unknown,
        }) as unknown,
      },
      replayArgs: ['--seed', '4'],
      reportDir: '/r',
    });
    // A target without a hub crosses without one.
    const hubless = handOverFromEnv(JSON.stringify({ target: { baseUrl: 'http://x' } }));
    expect(hubless?.target).not.toHaveProperty('hubUrl');
    expect(() => handOverFromEnv('{"target":{"baseUrl":"x"}}')).toThrow(
      /EAC_RUN does not describe a run/,
    );
  });
});
