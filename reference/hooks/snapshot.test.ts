import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type RunningReference } from '../server.ts';
import { postJson } from '../test-client.ts';

// The snapshot hook (spec/hooks.openapi.yaml): read-only, canonical, and changed by a write,
// which is what lets the suites fail a refusal that still wrote.
describe('snapshot hook', () => {
  let running: RunningReference;
  let hooks: string;
  beforeAll(async () => {
    running = await start({ hooks: true, seed: 3 });
    hooks = running.hooksUrl ?? '';
  });
  afterAll(() => running.close());

  const post = async (url: string, body: unknown) =>
    (await postJson<{ data: Record<string, string> }>(url, body)).body;
  const snapshot = async (organizationId: string) => {
    const res = await fetch(`${hooks}/accounts/${organizationId}/snapshot`);
    expect(res.status).toBe(200);
    return JSON.stringify(((await res.json()) as { data: { state: unknown } }).data.state);
  };

  it('is announced, reads the same twice, and shows a write', async () => {
    const caps = (await (await fetch(`${hooks}/capabilities`)).json()) as {
      data: { hooks: string[] };
    };
    expect(caps.data.hooks).toContain('snapshot');
    const { data: account } = await post(`${hooks}/accounts`, {});
    const org = account['organizationId'] ?? '';
    const { data: project } = await post(`${hooks}/accounts/${org}/projects`, {});
    const empty = await snapshot(org);
    expect(await snapshot(org), 'reading a snapshot changes nothing').toBe(empty);
    await post(`${running.url}/v1/api/projects/register-organization`, {
      apiKey: account['orgBoundKey'],
      projectId: project['projectId'],
      name: 'Acme',
      properties: { b: 1, a: 2 },
    });
    const written = await snapshot(org);
    expect(written, 'a write shows in the next snapshot').not.toBe(empty);
    expect(written, 'members are sorted').toContain('"properties":{"a":2,"b":1}');
  });

  it('answers 404 for an unknown account', async () => {
    const res = await fetch(`${hooks}/accounts/00000000-0000-4000-8000-000000000000/snapshot`);
    expect(res.status).toBe(404);
  });
});
