import { describe, expect, it } from 'vitest';
import type { Clause } from '../spec/clauses/types.ts';
import type { Result } from './schema.ts';
import { answerKey, buildRegister, endpointsOf, testsOf } from './register.ts';

const clauses: Clause[] = [
  { id: 'x.status', section: '7', level: 'unspecified', summary: 's', decision: '400' },
  { id: 'x.never', section: '7', level: 'unspecified', summary: 'n', decision: 'd' },
  { id: 'x.must', section: '7', level: 'must', summary: 'm' },
];

type Probed = Pick<Result, 'id' | 'clauses' | 'outcome' | 'reason' | 'observations'>;

function probe(
  id: string,
  observations: Result['observations'],
  outcome: Result['outcome'] = 'probe',
): Probed {
  return { id, clauses: ['x.status'], outcome, ...(observations ? { observations } : {}) };
}

describe('buildRegister', () => {
  const uuid = '0b3c5d7e-1111-4222-8333-944455556666';
  const register = buildRegister(clauses, [
    probe('a/one', [
      { observation: '422 VALIDATION_ERROR', matchesDecision: false, endpoint: 'POST /v1/r/{id}' },
      { observation: '400 VALIDATION_ERROR', matchesDecision: true, endpoint: 'PUT /v1/r/{id}' },
    ]),
    probe('a/two', [
      { observation: '422 VALIDATION_ERROR', matchesDecision: false, endpoint: 'GET /v1/s' },
    ]),
    // A probe that failed on a departure still says what the target did.
    probe('a/three', [{ observation: `id ${uuid} kept`, matchesDecision: false }], 'fail'),
    probe('a/four', [{ observation: 'never seen', matchesDecision: false }], 'not-run'),
  ]);

  it('holds every unspecified clause of the catalogue, and no other', () => {
    expect(register.map((e) => e.clause)).toEqual(['x.status', 'x.never']);
    expect(register[1]).toMatchObject({ decision: 'd', tests: 0, answers: [] });
  });

  it('groups by clause: one row per distinct answer, with the tests and endpoints it was seen on', () => {
    const entry = register[0];
    expect(entry?.tests).toBe(3);
    expect(entry?.answers.map((a) => [a.answer, a.matchesDecision])).toEqual([
      ['422 VALIDATION_ERROR', false],
      ['400 VALIDATION_ERROR', true],
      ['id {uuid} kept', false],
    ]);
    const departing = entry?.answers[0];
    if (!departing) throw new Error('no answer');
    expect(testsOf(departing)).toEqual(['a/one', 'a/two']);
    expect(endpointsOf(departing)).toEqual(['POST /v1/r/{id}', 'GET /v1/s']);
  });

  it('writes service ids as {uuid} so equal answers group', () => {
    expect(answerKey(`a ${uuid} b ${uuid.toUpperCase()}`)).toBe('a {uuid} b {uuid}');
  });
});
