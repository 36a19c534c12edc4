import fc from 'fast-check';
import { expect } from 'vitest';
import { documentedStatus, expectedPermissions } from '../../fixtures/oracles/index.ts';
import { buildWorld } from '../harness/given/accounts.ts';
import { conformance } from '../harness/conformance.ts';
import { expectError, successStatus } from '../harness/expect.ts';
import { CONTENT, READ_BACK, TENANT_FIELDS, tenantToken } from '../harness/given/dashboards.ts';
import { V2_KEY, finalize } from '../harness/given/v2.ts';
import {
  buildShape,
  describeWrite,
  errorText,
  send,
  snapshotOf,
  v1Seen,
  v1Write,
  v2Seen,
  workspacesSeen,
  worldShape,
  type Credential,
  type V1Write,
} from './kit.ts';
import { namedReplacements, V2_REPLACEMENT } from '../harness/replacements.ts';

// Issue 7 property 9 (§3 last row, §7 410 row, §9 table): for arbitrary v1 worlds and
// arbitrary valid bodies of the five v1 writes, no write answers 410 before finalize; after
// it every write answers 410 MIGRATED_TO_V2 naming a /v2/api/ endpoint and changes nothing
// (read back through the v1 lists, the v2 lists and the snapshot hook when offered); the v1
// reads keep their v1 shape, and another organization of the deployment keeps working.
const GONE = 'MIGRATED_TO_V2';

/** One write of each kind on the other account's fresh world: valid there, each sent once. */
const otherWrites: readonly V1Write[] = (
  ['create', 'clone', 'add-charts', 'remove-charts', 'append-charts-from'] as const
).map((kind) => ({
  kind,
  credential: 'org-bound',
  at: 0,
  from: 1,
  charts: [0],
  name: undefined,
  retarget: false,
}));

conformance(
  [
    'migration.v1-write.before',
    'migration.v1-write.410',
    'errors.migrated-to-v2',
    'errors.migrated-to-v2.names-endpoint',
    'migration.list-workspaces.after',
    'migration.list-workspace-dashboards.after',
    'states.migration.finalize',
    // v1 writes answered under /v1/api/, the 410 naming their /v2/api/ replacement.
    'versioning.path-prefix',
  ],
  'for arbitrary worlds and v1 write bodies: never 410 before finalize; after it always 410 MIGRATED_TO_V2 naming a v2 endpoint, nothing changed, v1 reads in v1 shape, another organization untouched',
  async (t) => {
    const tenants = t.profile.serves.includes('tenant-flow');
    const credentials: Credential[] = [
      'org-bound',
      'user-scoped',
      ...(tenants ? ['tenant' as const] : []),
    ];
    const write = v1Write(credentials);
    const allEditing = Object.fromEntries(expectedPermissions.grantsEditing.map((f) => [f, true]));
    await fc.assert(
      fc.asyncProperty(
        worldShape,
        fc.array(write, { maxLength: 4 }),
        fc.array(write, { minLength: 1, maxLength: 5 }),
        async (shape, before, after) => {
          const w = await buildWorld(t);
          const world = await buildShape(t, w, shape);
          const tenant = tenants ? await tenantToken(t, w, allEditing) : undefined;
          const secrets = { w, ...(tenant === undefined ? {} : { tenant }) };
          for (const x of before) {
            const res = await send(t, secrets, x, world);
            expect(
              res.status,
              `before finalize, ${describeWrite(x, world)} must work: ${res.text.slice(0, 200)}`,
            ).not.toBe(documentedStatus(GONE));
            expect(res.status, `${describeWrite(x, world)}: no server error`).toBeLessThan(500);
          }
          const other = await buildWorld(t);
          const otherWorld = await buildShape(t, other, [[2], [1]]);
          const v1Before = await v1Seen(t, w, world, 'across-finalize');
          await finalize(t, w);

          const readAll = async (what: string) =>
            [
              await workspacesSeen(t, w, world, what),
              await v1Seen(t, w, world),
              await v2Seen(t, w, tenant === undefined ? [] : [tenant]),
              (await snapshotOf(t, w)) ?? '',
            ].join('\n');
          const held = await readAll('after finalize');
          expect(
            await v1Seen(t, w, world, 'across-finalize'),
            'after finalize the v1 lists show the same dashboards under their v1 ids',
          ).toBe(v1Before);

          for (const x of after) {
            const what = `after finalize, ${describeWrite(x, world)}`;
            const res = await send(t, secrets, x, world);
            expectError(res, documentedStatus(GONE), what, GONE);
            // §4.16: the v2 call that replaces this write, and no other write's.
            expect(
              [...namedReplacements(errorText(res))],
              `${what}: the error names ${V2_REPLACEMENT[x.kind].join(' ')} and no other write's replacement: ${errorText(res).slice(0, 300)}`,
            ).toEqual([x.kind]);
          }
          expect(
            await readAll('after the refused writes'),
            'no refused write changed anything',
          ).toBe(held);

          const kinds = new Set(after.map((x) => x.kind));
          for (const x of otherWrites.filter((o) => kinds.has(o.kind))) {
            const res = await send(t, { w: other }, x, otherWorld);
            // §4.10–§4.12 show 200; §4.16 shows no status for the v1 create and add-charts.
            const ok =
              x.kind === 'create' || x.kind === 'add-charts'
                ? successStatus(res.status)
                : res.status === 200;
            expect(
              ok,
              `another organization, not finalized: ${describeWrite(x, otherWorld)}: ${res.status} ${res.text.slice(0, 200)}`,
            ).toBe(true);
          }
        },
      ),
      t.fc(12),
    );
  },
  {
    needs: [...CONTENT, 'dashboards', 'migration'],
    parts: ['v1-dashboards', 'v2'],
    relies: [...READ_BACK, ...V2_KEY, ...TENANT_FIELDS],
    timeout: 180_000,
  },
);
