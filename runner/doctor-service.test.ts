import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkService, renderDoctor, type DoctorReport } from './doctor.ts';

/** A local server answering every request with `answer`. */
async function serve(answer: { status: number; type: string; body: string }): Promise<Server> {
  const server = createServer((_req, res) => {
    res.writeHead(answer.status, { 'content-type': answer.type });
    res.end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

const urlOf = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

describe('eac doctor: does the target answer as the service does', () => {
  let notFound: Server;
  let service: Server;
  let notFoundEnvelope: Server;
  beforeAll(async () => {
    notFound = await serve({ status: 404, type: 'text/html', body: '<h1>Not Found</h1>' });
    service = await serve({
      status: 400,
      type: 'application/json',
      body: JSON.stringify({ status: 'error', error: { message: 'apiKey is required' } }),
    });
    notFoundEnvelope = await serve({
      status: 404,
      type: 'application/json',
      body: JSON.stringify({ status: 'error', error: { message: 'no route' } }),
    });
  });
  afterAll(() => {
    for (const s of [notFound, service, notFoundEnvelope]) s.close();
  });

  it('a host answering 404 to everything is not the service', async () => {
    const check = await checkService(urlOf(notFound));
    expect(check.ok).toBe(false);
    expect(check.detail).toMatch(
      /^the target does not answer as the service does: POST \/v1\/api\/projects\/user-token answered 404 text\/html without the §7 error envelope/,
    );
  });

  it('a host answering the §7 envelope with 404 on every path the document fixes is not it either', async () => {
    const check = await checkService(urlOf(notFoundEnvelope));
    expect(check.ok).toBe(false);
    expect(check.detail).toMatch(/404 on every path the document fixes/);
  });

  it('a target refusing a call without credentials in the §7 envelope is', async () => {
    expect(await checkService(urlOf(service))).toEqual({
      ok: true,
      detail: expect.stringMatching(
        /^POST \/v1\/api\/projects\/user-token: 400 in the §7 error envelope/,
      ) as unknown,
    });
  });
});

describe('eac doctor: a selection mostly not run', () => {
  const report: DoctorReport = {
    target: 'http://t',
    embedded: false,
    hub: { state: 'none' },
    hooks: [],
    profile: { source: 'document-only (no --profile)', serves: [] },
    tests: 1026,
    willRun: 14,
    notRun: 1012,
    causes: [{ kind: 'hook', entry: 'hook:accounts', tests: 1012, alone: 1012 }],
    areas: [],
    fileErrors: [],
    problems: [],
    untested: [],
  };

  it('warns when over half the selection will not run, under its status', () => {
    const lines = renderDoctor(report).split('\n');
    expect(lines[0]).toBe('eac doctor: ready, but only 14 of 1026 selected tests will run');
    expect(lines[1]).toBe(
      '  warning: over half the selection (1012 of 1026 tests) will be not-run; see "not-run by entry" below',
    );
    const half = renderDoctor({ ...report, willRun: 513, notRun: 513 });
    expect(half.split('\n')[0]).toBe('eac doctor: ready');
  });
});
