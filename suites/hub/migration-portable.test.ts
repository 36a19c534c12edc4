import { expect } from 'vitest';
import type { HookName } from '../../spec/schemas/hooks.ts';
import { cause } from '../harness/causes.ts';
import { conformance } from '../harness/conformance.ts';
import { successStatus } from '../harness/expect.ts';
import { API_KEY, V2_KEY, finalize, v2Delete } from '../harness/given/v2.ts';
import { chartPath } from '../harness/paths.ts';
import { hubWorld, needs, HUB_TIMEOUT, expectV1ComponentFrozen, migratedBoard } from './kit.ts';

// §9 with §4.17: after finalize the v1 dashboard component stays as the migration left it. The
// v2 dashboard is changed by removing its charts, named by the ids its own v2 record lists
// (shapes.v2Dashboard.chartIds, a shape), so whether charts kept their v1 ids in the migration
// (migration.chart-ids-kept) is never asked.
const parts = ['hub', 'v2'] as const;
const migrating: readonly HookName[] = [...needs, 'migration'];

conformance(
  ['migration.v1-component.frozen'],
  'after finalize the v1 component keeps showing the dashboard as migrated while the v2 dashboard loses the charts its record lists',
  async (t) => {
    const w = await hubWorld(t);
    await finalize(t, w);
    const { applicationId, v2 } = await migratedBoard(t, w);
    const chartIds =
      v2.chartIds ??
      t.notRun(
        "the target's profile names no chart ids in a v2 dashboard record (shapes.v2Dashboard.chartIds)",
        cause.shape('shapes.v2Dashboard.chartIds'),
      );
    expect(chartIds.length, 'the migrated dashboard lists the chart it holds').toBeGreaterThan(0);
    for (const chartId of chartIds) {
      const res = await v2Delete(t, w, chartPath(applicationId, v2.id, chartId), API_KEY);
      // §4.16 shows no status for the v2 calls: any success.
      expect(
        successStatus(res.status),
        `the host removes chart ${chartId} through v2: ${res.status} ${res.text.slice(0, 200)}`,
      ).toBe(true);
    }
    await expectV1ComponentFrozen(t, w, v2.id);
  },
  { timeout: HUB_TIMEOUT, parts, needs: migrating, relies: [...V2_KEY, 'hub.v1-component.page'] },
);
