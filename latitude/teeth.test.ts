import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLatitudeOnReference, type EmbeddedLatitude } from './embedded.ts';

/**
 * The proxy has teeth: a check that asserts more than the document (an exact 200 where §4.16
 * shows no status; a `charts` member on a v1 list item, which §2.8 does not show) fails through
 * the proxy, while the same check passes against the reference alone, and the fair check (any
 * 2xx with the success envelope; §2.8's members) passes through both.
 */

interface Json {
  status?: string;
  data?: Record<string, unknown>;
}

async function call(base: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: (text === '' ? {} : JSON.parse(text)) as Json };
}

let latitude: EmbeddedLatitude;
beforeAll(async () => {
  latitude = await startLatitudeOnReference({
    vary: ['status.created', 'v1.record-minimal'],
    seed: 5,
    log: () => undefined,
  });
});
afterAll(() => latitude?.close());

/** An account with one workspace, through the hooks (relayed untouched by the proxy). */
async function world(hooks: string) {
  const account = (await call(hooks, 'POST', '/accounts', { name: 'Teeth' })).body.data as {
    organizationId: string;
    orgBoundKey: string;
  };
  const ws = (
    await call(hooks, 'POST', `/accounts/${account.organizationId}/workspaces`, { name: 'W' })
  ).body.data as { workspaceId: string; dashboardId: string };
  return { ...account, ...ws };
}

/** The reference behind the proxy, reached directly: the proxy's target. */
function direct(): { url: string; hooks: string } {
  const target = latitude.target;
  return { url: target.url, hooks: target.hooksUrl ?? '' };
}

describe('the latitude proxy has teeth', () => {
  it("fails a check demanding the reference's v1 list members, not §2.8's", async () => {
    const hooks = latitude.hooksUrl ?? '';
    const w = await world(hooks);
    const list = (base: string) =>
      call(
        base,
        'GET',
        `/v1/api/dashboard/list-workspace-dashboards?workspaceId=${w.workspaceId}&apiKey=${w.orgBoundKey}`,
      );
    const items = async (base: string) =>
      ((await list(base)).body.data?.['dashboards'] ?? []) as Record<string, unknown>[];
    const overStrict = (item: Record<string, unknown> | undefined) =>
      Array.isArray(item?.['charts']);
    const fair = (item: Record<string, unknown> | undefined) =>
      item?.['id'] === w.dashboardId && 'tenantId' in item && 'ownerProjectUserId' in item;
    const [proxied] = await items(latitude.url);
    const [plain] = await items(direct().url);
    expect(overStrict(plain), 'the reference alone shows its charts member').toBe(true);
    expect(overStrict(proxied), 'through the proxy the over-strict check fails').toBe(false);
    expect(fair(plain) && fair(proxied), "§2.8's members hold on both").toBe(true);
  });

  it('fails a check demanding 200 from a v2 create, where §4.16 shows no status', async () => {
    const hooks = latitude.hooksUrl ?? '';
    const w = await world(hooks);
    const migration = (
      await call(hooks, 'POST', `/accounts/${w.organizationId}/migration/finalize`, {})
    ).body.data as { applications: { applicationId: string }[] };
    const app = migration.applications[0]?.applicationId ?? '';
    const create = (base: string) =>
      call(base, 'POST', `/v2/api/applications/${app}/dashboards`, {
        name: 'Teeth board',
        apiKey: w.orgBoundKey,
      });
    const proxied = await create(latitude.url);
    const plain = await create(direct().url);
    expect(plain.status, 'the reference alone answers 200').toBe(200);
    expect(proxied.status, 'through the proxy an exact-200 check fails').not.toBe(200);
    for (const answer of [plain, proxied]) {
      expect(answer.status >= 200 && answer.status < 300 && answer.status !== 204).toBe(true);
      expect(answer.body.status).toBe('success');
    }
  });
});
