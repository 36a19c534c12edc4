import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TargetProfile } from '../spec/profile.ts';
import { startLatitude, type RunningLatitude } from './proxy.ts';

// A tiny target: a few API answers, two hooks, and a hub page; enough to watch the relay.
const ROLES = '/v1/api/projects/p/user-roles';
const HOOK_ANSWER = '{"status":"success","data":{"created_at":"2026-01-02T03:04:05.678Z"}}';
function stubTarget(): Server {
  return createServer((req, res) => {
    const json = (status: number, body: string) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
      res.end(body);
    };
    if (req.url === '/__eac/capabilities')
      return json(200, '{"status":"success","data":{"implementation":"stub","hooks":["clock"]}}');
    if (req.url === '/__eac/accounts') return json(201, HOOK_ANSWER);
    if (req.url === '/v1/api/dashboard/create')
      return json(200, '{"status":"success","data":{"dashboardId":"d","name":"n"}}');
    if (req.url?.startsWith('/echo')) {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () =>
        json(
          200,
          JSON.stringify({
            status: 'success',
            data: {
              method: req.method,
              body: Buffer.concat(chunks).toString(),
              auth: req.headers.authorization ?? null,
            },
          }),
        ),
      );
      return;
    }
    if (req.url?.startsWith(ROLES)) {
      // A list of five roles whatever the query (the cursor is the proxy's to read).
      const userRoles = ['a', 'b', 'c', 'd', 'e'].map((id) => ({ id, name: id }));
      return json(200, JSON.stringify({ status: 'success', data: { userRoles } }));
    }
    if (req.url === '/share/page') {
      res.writeHead(200, { 'content-type': 'text/html' });
      return res.end('<main>hub</main>');
    }
    return json(404, '{"status":"error","error":{"message":"no","code":"ROUTE_NOT_FOUND"}}');
  });
}

async function listening(server: Server): Promise<string> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
}

/** Sends raw bytes and reads everything until the server closes the connection. */
async function raw(url: string, bytes: string): Promise<string> {
  const { hostname, port } = new URL(url);
  const socket = connect({ host: hostname, port: Number(port) });
  await once(socket, 'connect');
  const chunks: Buffer[] = [];
  socket.on('data', (c: Buffer) => chunks.push(c));
  socket.write(bytes);
  await once(socket, 'close');
  return Buffer.concat(chunks).toString('latin1');
}

const bodyOfRaw = (answer: string) => answer.slice(answer.indexOf('\r\n\r\n') + 4);

let api: Server;
let hub: Server;
let target: string;
let hubTarget: string;
const running: RunningLatitude[] = [];
const proxy = async (vary: Parameters<typeof startLatitude>[0]['vary']) => {
  const p = await startLatitude({
    target,
    hub: hubTarget,
    hooks: '/__eac',
    vary,
    seed: 7,
    log: () => undefined,
  });
  running.push(p);
  return p;
};

beforeAll(async () => {
  api = stubTarget();
  hub = stubTarget();
  target = await listening(api);
  hubTarget = await listening(hub);
});

afterAll(async () => {
  await Promise.all(running.map((p) => p.close()));
  api.close();
  hub.close();
});

describe('startLatitude', () => {
  it('relays a request as a transform rewrote it, and answers one it refuses without the target', async () => {
    let seen = 0;
    api.on('request', () => (seen += 1));
    const p = await proxy(['bodies.prototype-keys-dropped', 'limits.tighter']);
    const echo = await fetch(`${p.url}/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"a":{"__proto__":{"x":1},"b":2}}',
    });
    expect(await echo.json()).toMatchObject({ data: { body: '{"a":{"b":2}}' } });
    expect(seen).toBe(1);
    const big = await fetch(`${p.url}/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ blob: 'x'.repeat(300 * 1024) }),
    });
    expect(big.status).toBe(413);
    expect(await big.json()).toMatchObject({
      status: 'error',
      error: { code: 'REQUEST_TOO_LARGE' },
    });
    expect(seen).toBe(1);
    expect(p.counts()['bodies.prototype-keys-dropped']).toBe(1);
  });

  it('relays requests with their body and headers, and rewrites the answer', async () => {
    const p = await proxy(['status.created']);
    const echo = await fetch(`${p.url}/echo?q=1`, {
      method: 'POST',
      headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
      body: '{"a":1}',
    });
    expect(await echo.json()).toEqual({
      status: 'success',
      data: { method: 'POST', body: '{"a":1}', auth: 'Bearer t' },
    });
    const created = await fetch(`${p.url}/v1/api/dashboard/create`, { method: 'POST' });
    expect(created.status).toBe(201);
    expect(await created.json()).toEqual({
      status: 'success',
      data: { dashboardId: 'd', name: 'n' },
    });
    expect(p.counts()['status.created']).toBe(1);
    const counts = (await (await fetch(`${p.url}/__latitude/counts`)).json()) as {
      data: Record<string, number>;
    };
    expect(counts.data['status.created']).toBe(1);
    expect(counts.data['members.extra']).toBe(0);
    const page = await fetch(`${p.hubUrl}/share/page`);
    expect(await page.text()).toBe('<main>hub</main>');
  });

  it('answers a request a transform refuses itself, relaying nothing', async () => {
    const p = await proxy(['users.update.other-reading', 'errors.other-4xx']);
    const path = '/v1/api/projects/11111111-2222-4333-8444-555555555555/users/a';
    const res = await fetch(`${p.url}${path}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'n', projectOrganizationId: 'acme' }),
    });
    // The stub has no such route (it would answer 404); the proxy's own refusal is rewritten
    // by the transforms after it like any answer (400 as 422).
    expect(res.status).toBe(422);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('VALIDATION_ERROR');
    expect(p.counts()['users.update.other-reading']).toBe(1);
    expect(p.counts()['errors.other-4xx']).toBe(1);
  });

  it('answers the capabilities itself and relays other hooks untouched', async () => {
    const p = await proxy('all');
    expect(p.hooksUrl).toBe(`${p.url}/__eac`);
    const caps = await fetch(`${p.hooksUrl ?? ''}/capabilities`);
    expect(await caps.json()).toEqual({
      status: 'success',
      data: { implementation: 'eac-latitude', version: '0.1.0', hooks: ['clock'] },
    });
    const hook = await fetch(`${p.hooksUrl ?? ''}/accounts`, { method: 'POST' });
    expect(hook.status).toBe(201);
    expect(hook.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await hook.text()).toBe(HOOK_ANSWER);
  });

  it('writes a chunked answer in its pieces, with no Content-Length', async () => {
    const p = await proxy(['body.chunked']);
    const answer = await raw(p.url, `GET /echo HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    const head = answer.slice(0, answer.indexOf('\r\n\r\n')).toLowerCase();
    expect(head).toContain('transfer-encoding: chunked');
    expect(head).not.toContain('content-length');
    const sizes = bodyOfRaw(answer).match(/(^|\r\n)[0-9a-f]+\r\n/g) ?? [];
    // Two pieces or more, then the last chunk.
    expect(sizes.length).toBeGreaterThanOrEqual(3);
    expect(p.counts()['body.chunked']).toBe(1);
  });

  it('refuses a request it cannot frame with 400 and an empty body', async () => {
    const p = await proxy(['framing.empty-body']);
    const answer = await raw(
      p.url,
      'POST /echo HTTP/1.1\r\nHost: x\r\ncontent-length: 2\r\ncontent-length: 3\r\n\r\n{}',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer.toLowerCase()).toContain('content-length: 0');
    expect(bodyOfRaw(answer)).toBe('');
    const badChunk = await raw(
      p.url,
      'POST /echo HTTP/1.1\r\nHost: x\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n',
    );
    expect(badChunk).toMatch(/^HTTP\/1\.1 400 /);
    expect(bodyOfRaw(badChunk)).toBe('');
    const noHost = await raw(p.url, 'GET /echo HTTP/1.1\r\n\r\n');
    expect(noHost).toMatch(/^HTTP\/1\.1 400 /);
    expect(bodyOfRaw(noHost)).toBe('');
    const longQuery = await raw(
      p.url,
      `GET /echo?q=${'a'.repeat(17 * 1024)} HTTP/1.1\r\nHost: x\r\n\r\n`,
    );
    expect(longQuery).toMatch(/^HTTP\/1\.1 414 /);
    expect(bodyOfRaw(longQuery)).toBe('');
    const bigHeader = await raw(
      p.url,
      `GET /echo HTTP/1.1\r\nHost: x\r\nx-big: ${'a'.repeat(17 * 1024)}\r\n\r\n`,
    );
    expect(bigHeader).toMatch(/^HTTP\/1\.1 431 /);
    expect(p.counts()['framing.empty-body']).toBe(5);
    // A large body frames well: the target answers it.
    const large = await fetch(`${p.url}/echo`, { method: 'POST', body: 'x'.repeat(1100 * 1024) });
    expect(large.status).toBe(200);
  });

  it('without that freedom, answers what it cannot frame in the error envelope', async () => {
    const p = await proxy(['status.created']);
    const answer = await raw(
      p.url,
      'POST /echo HTTP/1.1\r\nHost: x\r\ncontent-length: 2\r\ncontent-length: 3\r\n\r\n{}',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(bodyOfRaw(answer))).toMatchObject({ status: 'error', error: {} });
  });

  it('states the shapes its transforms produce in the profile', async () => {
    const p = await proxy(['status.created', 'workspaces.renamed', 'errors.reworded']);
    const profile = p.profile(
      TargetProfile.parse({
        description: 'stub',
        serves: ['v2'],
        follows: ['v2.refusals.not-found', 'migration.chart-ids-kept'],
      }),
    );
    expect(() => TargetProfile.parse(profile)).not.toThrow();
    expect(profile.shapes.successStatuses?.['POST /v1/api/dashboard/create']).toBe(201);
    expect(profile.shapes.workspaceItem?.workspaceId).toBe('id');
    // Reworded errors leave the followed decisions stated: no test leaning on them reads a code.
    expect(profile.follows).toEqual(['v2.refusals.not-found', 'migration.chart-ids-kept']);
  });

  it('takes the same random half for the same seed, and says which', async () => {
    const lines: string[] = [];
    const a = await startLatitude({
      target,
      hub: hubTarget,
      vary: { random: 5 },
      log: (l) => lines.push(l),
    });
    running.push(a);
    const b = await startLatitude({
      target,
      hub: hubTarget,
      vary: { random: 5 },
      log: () => undefined,
    });
    running.push(b);
    expect(a.chosen).toEqual(b.chosen);
    expect(a.chosen.length).toBeGreaterThan(0);
    expect(lines.join('\n')).toContain(`random:5 takes ${a.chosen.join(', ')}`);
  });

  it('pages a list answer two at a time by a cursor, refusing one that names no page', async () => {
    let seen = 0;
    api.on('request', () => (seen += 1));
    const p = await proxy(['lists.paged', 'arrays.reordered']);
    const ids: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor === null ? '' : `?cursor=${cursor}`;
      const page = (await (await fetch(`${p.url}${ROLES}${query}`)).json()) as {
        data: { userRoles: { id: string }[]; nextCursor: string | null };
      };
      expect(page.data.userRoles.length).toBeLessThanOrEqual(2);
      ids.push(...page.data.userRoles.map((r) => r.id));
      cursor = page.data.nextCursor;
      pages += 1;
    } while (cursor !== null && pages < 10);
    // Reordered within each page (arrays.reordered comes later), never across them.
    expect(pages).toBe(3);
    expect([...ids].sort()).toEqual(['a', 'b', 'c', 'd', 'e']);
    const before = seen;
    const bad = await fetch(`${p.url}${ROLES}?cursor=nonsense`);
    expect(bad.status).toBe(400);
    expect(seen).toBe(before);
    expect(p.counts()['lists.paged']).toBe(4);
    expect(p.profile({ serves: [], shapes: {} }).shapes.paging).toEqual({
      cursor: { pointer: '/data/nextCursor', parameter: 'cursor' },
    });
  });

  it('answers 408 to a client still sending its headers after 2 s, and reads a quick one', async () => {
    const p = await proxy(['limits.slow-clients-cut']);
    const quick = await fetch(`${p.url}/v1/api/dashboard/create`);
    expect(quick.status).toBe(200);
    const started = performance.now();
    // The line and one header, then nothing: the proxy gives up and closes.
    const answer = await raw(p.url, 'GET /v1/api/dashboard/create HTTP/1.1\r\nhost: x\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(performance.now() - started).toBeLessThan(4000);
    expect(p.counts()['limits.slow-clients-cut']).toBe(1);
  });
});
