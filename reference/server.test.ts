import { afterEach, describe, expect, it } from 'vitest';
import { start, type RunningReference } from './server.ts';

// The reference's boot contract (ARCHITECTURE "Host hooks"): hooks only when enabled, and
// every answer, even for a route that does not exist, in the §7 envelope.
describe('reference server', () => {
  let running: RunningReference | undefined;
  afterEach(async () => {
    await running?.close();
    running = undefined;
  });

  it('serves no hooks unless they are enabled', async () => {
    running = await start({ seed: 1 });
    expect(running.hooksUrl).toBeUndefined();
    const res = await fetch(`${running.url}/__eac/capabilities`);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ status: 'error', error: { code: 'ROUTE_NOT_FOUND' } });
  });

  it('announces its hooks when enabled', async () => {
    running = await start({ hooks: true, seed: 1 });
    const res = await fetch(`${running.hooksUrl ?? ''}/capabilities`);
    const body = (await res.json()) as { data: { implementation: string; hooks: string[] } };
    expect(body.data.implementation).toBe('eac-reference');
    expect(body.data.hooks).toEqual(
      expect.arrayContaining(['accounts', 'projects', 'roles', 'clock']),
    );
  });

  it('gives the same ids for the same seed and the same requests', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) {
      running = await start({ hooks: true, seed: 42 });
      const res = await fetch(`${running.hooksUrl ?? ''}/accounts`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      ids.push(((await res.json()) as { data: { organizationId: string } }).data.organizationId);
      await running.close();
      running = undefined;
    }
    expect(ids[0]).toBe(ids[1]);
  });
});
