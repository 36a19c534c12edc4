import { describe, expect, it } from 'vitest';
import { boundObservation, endpointOf } from '../suites/harness/conformance.ts';
import { MAX_OBSERVATION_CHARS } from '../suites/harness/meta.ts';
import { handOverFromEnv } from './target.ts';

describe('what a probe records', () => {
  it('names the endpoint of the last request as a path template', () => {
    const at = (method: string, url: string) => ({ request: { method, url, headers: {} }, ms: 1 });
    expect(
      endpointOf(
        at(
          'PUT',
          'http://127.0.0.1:3000/v1/api/projects/0B3C5D7E-1111-4222-8333-944455556666/users/u-1?x=1',
        ),
      ),
    ).toBe('PUT /v1/api/projects/{id}/users/u-1');
    expect(endpointOf(at('GET', 'http://h/v2/api/items/12345'))).toBe('GET /v2/api/items/{id}');
    expect(endpointOf(undefined)).toBeUndefined();
  });

  it('keeps an observation whole up to 16 KiB, and says how much it cut beyond', () => {
    const whole = 'a'.repeat(MAX_OBSERVATION_CHARS);
    expect(boundObservation(whole)).toBe(whole);
    const cut = boundObservation(`${whole}bcd`);
    expect(cut.startsWith(whole)).toBe(true);
    expect(cut).toMatch(/… \(3 more characters not kept\)$/);
  });

  it('hands the replay arguments of eac run to the tests', () => {
    const target = { baseUrl: 'http://x', hubUrl: 'http://x' };
    expect(
      handOverFromEnv(JSON.stringify({ target, replayArgs: ['--profile', '/p.yaml'] }))?.replayArgs,
    ).toEqual(['--profile', '/p.yaml']);
    expect(handOverFromEnv(JSON.stringify({ target }))?.replayArgs).toEqual([]);
  });
});
