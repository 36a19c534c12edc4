import { describe, expect, it } from 'vitest';
import { errorsOther4xx, errorsReworded } from './errors.ts';
import { answerOf, bodyOf, fixedRandom } from './test-answer.ts';

const err = (code: string | undefined, details?: unknown) => ({
  status: 'error',
  error: {
    message: 'original words',
    ...(code === undefined ? {} : { code }),
    ...(details === undefined ? {} : { details }),
  },
});
const ROLE = '/v1/api/projects/p/user-roles/r';

describe('errors.reworded', () => {
  it("rewords an error outside §7's table: another or no code, another message", () => {
    const codes = ['NOT_FOUND', 'VALIDATION_ERROR', 'UNAUTHORIZED', 'FORBIDDEN', 'CONFLICT'];
    const seen = new Set<unknown>();
    for (const code of codes) {
      const out = bodyOf(
        errorsReworded.apply(answerOf('GET', '/x', 404, err(code, { a: 1 })), fixedRandom()),
      ) as { status: string; error: { message: string; code?: string } };
      expect(out.status).toBe('error');
      expect(out.error.message).not.toBe('original words');
      expect(out.error.message.length).toBeGreaterThan(0);
      expect(out.error.code).not.toBe(code);
      seen.add(out.error.code);
    }
    expect(seen.size).toBeGreaterThan(1);
  });

  it('answers one condition alike every time', () => {
    const a = errorsReworded.apply(answerOf('GET', '/a', 403, err('FORBIDDEN')), fixedRandom(0.1));
    const b = errorsReworded.apply(answerOf('GET', '/b', 403, err('FORBIDDEN')), fixedRandom(0.9));
    expect(bodyOf(a)).toEqual(bodyOf(b));
  });

  it("keeps §7's table as it is", () => {
    for (const [status, code] of [
      [401, 'TENANT_NOT_MIGRATED'],
      [403, 'PROJECT_USER_WITHOUT_ORGANIZATION'],
      [409, 'SHARED_DASHBOARD_READ_ONLY'],
      [410, 'MIGRATED_TO_V2'],
    ] as const) {
      const answer = answerOf('POST', '/x', status, err(code, { replacement: 'POST /v2' }));
      expect(errorsReworded.apply(answer, fixedRandom()), code).toBe(undefined);
      expect(errorsOther4xx.apply(answer, fixedRandom()), code).toBe(undefined);
    }
  });
});

describe('errors.other-4xx', () => {
  it('answers validation 422, not found 400, and swaps 401 and 403', () => {
    for (const [from, to] of [
      [400, 422],
      [404, 400],
      [401, 403],
      [403, 401],
    ] as const) {
      const out = errorsOther4xx.apply(answerOf('GET', '/x', from, err('X')), fixedRandom());
      expect(out?.status).toBe(to);
    }
  });

  it("keeps the role update's 400 (§4.1), other statuses and non-envelope answers", () => {
    const r = fixedRandom();
    expect(errorsOther4xx.apply(answerOf('PUT', ROLE, 400, err(undefined)), r)).toBe(undefined);
    expect(errorsOther4xx.apply(answerOf('GET', ROLE, 400, err(undefined)), r)?.status).toBe(422);
    expect(errorsOther4xx.apply(answerOf('GET', '/x', 413, err('X')), r)).toBe(undefined);
    expect(errorsOther4xx.apply(answerOf('GET', '/x', 404, 'no', {}), r)).toBe(undefined);
  });
});
