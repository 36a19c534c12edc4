import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { memberName, PROTOTYPE_MEMBERS, propertyOptions } from './property.ts';

async function failure(run: () => Promise<void> | void): Promise<string> {
  try {
    await run();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the property held');
}

describe('a failing property names its counterexample and gives expected against actual', () => {
  it('an async property over an object: each member, and the assertion', async () => {
    const message = await failure(() =>
      fc.assert(
        fc.asyncProperty(fc.constant<Record<string, boolean>>({}), async (flags) => {
          await Promise.resolve();
          expect(Object.keys(flags), 'the flags sent should come back').toEqual(['x']);
        }),
        propertyOptions(7, 5),
      ),
    );
    const [first = ''] = message.split('\n');
    expect(first).toMatch(
      /^the flags sent should come back: expected \[.*\] to deeply equal \[ 'x' \]/,
    );
    expect(message).toMatch(
      /counterexample \(fast-check seed 7, path "[\d:]+", after \d+ runs?, shrunk \d+ times?\):/,
    );
    // The empty object said in words, not as fast-check's "[{}]".
    expect(message).toContain('  value 1: {} (no member)');
    expect(message).toContain('  expected: ["x"]');
    expect(message).toContain('  actual:   []');
  });

  it('a sync property over two values: each named, with its members', async () => {
    const message = await failure(() =>
      fc.assert(
        fc.property(fc.constant({ status: 500, code: 'X' }), fc.constant(400), (answer, limit) => {
          expect(answer.status, 'the status').toBeLessThan(limit);
        }),
        propertyOptions(1, 3),
      ),
    );
    expect(message).toContain('  value 1: status = 500, code = "X"');
    expect(message).toContain('  value 2: 400');
    expect(message).toContain('  expected: 400');
    expect(message).toContain('  actual:   500');
  });

  it('a holding property stays silent', () => {
    expect(() =>
      fc.assert(
        fc.property(fc.nat(), (n) => n >= 0),
        propertyOptions(1, 5),
      ),
    ).not.toThrow();
  });
});

describe('memberName', () => {
  it('never draws a prototype member name, where plain strings do', () => {
    const drawn = (arb: fc.Arbitrary<string>) =>
      new Set(
        fc.sample(arb, { seed: 11, numRuns: 5000 }).filter((n) => PROTOTYPE_MEMBERS.includes(n)),
      );
    expect(drawn(fc.string()).size, 'fast-check draws them among plain strings').toBeGreaterThan(0);
    expect([...drawn(memberName())]).toEqual([]);
  });
});
