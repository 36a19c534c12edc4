import { describe, expect, it } from 'vitest';
import { idsUpperCase } from './ids.ts';
import { answerOf, bodyOf } from './test-answer.ts';
import type { Answer } from './transform.ts';

const ID = '0b6f3c8e-52a1-4f3e-9d7c-2a4b6c8d0e1f';
const UP = ID.toUpperCase();

const request = (method: string, url: string, body?: unknown): Answer['request'] => ({
  method,
  url,
  headers: {},
  body: Buffer.from(body === undefined ? '' : JSON.stringify(body)),
  origin: 'api',
});

describe('ids.upper-case', () => {
  it("writes the ids of a success answer in upper case, the callers' data as it is", () => {
    const t = idsUpperCase();
    const out = t.apply(
      answerOf('POST', '/v1/api/projects/register-organization', 200, {
        status: 'success',
        data: {
          projectOrganizationId: ID,
          externalId: ID,
          workspace_id: ID,
          chartIds: [ID],
          properties: { id: ID },
          name: ID,
        },
      }),
      () => 0,
    );
    expect(out === undefined ? undefined : bodyOf(out)).toEqual({
      status: 'success',
      data: {
        projectOrganizationId: UP,
        externalId: ID,
        workspace_id: UP,
        chartIds: [UP],
        properties: { id: ID },
        name: ID,
      },
    });
    const refused = answerOf('GET', '/x', 404, { status: 'error', error: { id: ID } });
    expect(t.apply(refused, () => 0)).toBe(undefined);
  });

  it('takes back an id it wrote in upper case, in the path, the query and the body', () => {
    const t = idsUpperCase();
    const other = '1b6f3c8e-52a1-4f3e-9d7c-2a4b6c8d0e1f'.toUpperCase();
    expect(t.before?.(request('GET', `/v1/x/${UP}`))).toBe(undefined);
    t.apply(answerOf('GET', '/x', 200, { status: 'success', data: { id: ID } }), () => 0);
    const out = t.before?.(
      request('POST', `/v1/x/${UP}?projectOrganizationId=${UP}&externalId=${UP}`, {
        projectOrganizationId: UP,
        charts: [UP, other],
        externalId: UP,
      }),
    );
    const rewritten = out !== undefined && 'request' in out ? out.request : undefined;
    expect(rewritten?.url).toBe(`/v1/x/${ID}?projectOrganizationId=${ID}&externalId=${UP}`);
    expect(JSON.parse(rewritten?.body.toString('utf8') ?? '{}')).toEqual({
      projectOrganizationId: ID,
      charts: [ID, other],
      externalId: UP,
    });
  });
});
