import { afterAll, describe, expect, it } from 'vitest';
import { parseVary } from '../../latitude/choice.ts';
import { start, type RunningReference } from '../../reference/server.ts';
import { HUB_PLACEHOLDERS, HUB_THINGS, HubProfile } from '../../spec/hub-profile.ts';
import { browserProblem } from '../../suites/harness/browser-setup.ts';
import { givenFor } from '../../suites/harness/given/accounts.ts';
import { resolveTarget } from '../target.ts';
import type { TargetSpec } from '../target-spec.ts';
import { hubSection } from './hub.ts';
import { gone, parseSnapshot, templateOf } from './hub-tree.ts';
import { Watch } from './watch.ts';

// What discover reads off the hub pages is checked on targets whose choices are known: the
// reference as it is, and behind the latitude proxy with the entries that change the pages'
// markup and messages. The expectations come from the document (which things there are, which
// placeholder each name takes) and the entries' descriptions, never from a profile file.

const SNAPSHOT = `- banner:
  - heading "Shop" [level=1]
  - button "Schedule it"
- main:
  - toolbar "Tools":
    - button "Add chart"
    - button "Drill into Anvil"
  - 'figure "Sales: Q1"':
    - 'table "Sales: Q1"':
      - row "Anvil 15"
  - paragraph: some text`;

describe('reading the accessibility tree', () => {
  it('parses an ARIA snapshot into roles, names and children', () => {
    const [banner, main] = parseSnapshot(SNAPSHOT);
    expect(banner).toMatchObject({ role: 'banner', name: '' });
    expect(banner?.children.map((c) => [c.role, c.name])).toEqual([
      ['heading', 'Shop'],
      ['button', 'Schedule it'],
    ]);
    expect(main?.children[1]).toMatchObject({ role: 'figure', name: 'Sales: Q1' });
    expect(main?.children.map((c) => c.role)).toContain('paragraph');
  });

  it('finds what went, and which of it went with its parent', () => {
    const base = parseSnapshot(SNAPSHOT);
    const other = parseSnapshot(SNAPSHOT.replace(/- banner:\n( {2}- .*\n)+/, ''));
    const went = gone(base, other);
    expect(went.filter((p) => p.top).map((p) => p.node.role)).toEqual(['banner']);
    expect(went.map((p) => p.node.name)).toContain('Schedule it');
    // A node of the same role and name elsewhere does not stand in for one that went.
    const moved = parseSnapshot(SNAPSHOT.replace('  - button "Schedule it"\n', '')).concat(
      parseSnapshot('- button "Schedule it"'),
    );
    expect(gone(base, moved).map((p) => p.node.name)).toEqual(['Schedule it']);
  });

  it('writes a per-item part as a placeholder, the longest value first', () => {
    expect(templateOf('Drill into Anvil', ['Anvil', 'Bolt'], 'value')).toBe('Drill into {value}');
    expect(templateOf('Sales by product x (bar)', ['Sales', 'Sales by product x'], 'title')).toBe(
      '{title} (bar)',
    );
    expect(templateOf('Download', ['Anvil'], 'value')).toBeUndefined();
  });
});

const noBrowser = browserProblem() !== undefined;

describe.skipIf(noBrowser)('the hub section of a draft', () => {
  const running: RunningReference[] = [];
  afterAll(async () => {
    await Promise.all(running.map((r) => r.close()));
  });

  const read = async (spec: TargetSpec) => {
    const resolved = await resolveTarget(spec, 7);
    try {
      const w = new Watch(
        givenFor({
          ...resolved.target,
          hubUrl: resolved.target.hubUrl ?? '',
          checkDecisions: false,
          profile: { serves: [], shapes: {} },
        }),
      );
      await hubSection(w);
      return w;
    } finally {
      await resolved.close();
    }
  };

  it('names every thing of a page whose flags show and hide it, with its placeholder', async () => {
    const reference = await start({ hooks: true, seed: 13 });
    running.push(reference);
    const w = await read({
      target: reference.url,
      hub: reference.hubUrl,
      ...(reference.hooksUrl === undefined ? {} : { hooks: reference.hooksUrl }),
      checkDecisions: false,
    });
    const hub = HubProfile.parse(w.hub);
    expect(Object.keys(hub.things).sort()).toEqual([...HUB_THINGS].sort());
    // editFromSession may name one control per chart or one for the dashboard (no placeholder).
    for (const [thing, key] of Object.entries(HUB_PLACEHOLDERS))
      if (thing !== 'editFromSession')
        expect(hub.things[thing as keyof typeof hub.things]?.name).toContain(`{${key}}`);
    // Two controls no flag tells apart are never one thing.
    const names = Object.values(hub.things).map((l) => JSON.stringify(l));
    expect(new Set(names).size).toBe(names.length);
    expect(hub.rows).toEqual({ chart: { structure: 'table' }, drillDown: { structure: 'table' } });
    expect(hub.heightMessage).toBeDefined();
    expect(hub.paramsMessage?.type).toBe('embed:params');
    expect(hub.scheduledReports).toBe('all');
    expect(w.review.join('\n')).toMatch(/hub\.things/);
    expect(w.undecided.join('\n')).toMatch(/hub\.v1Component/);
    expect(w.observed.join('\n')).toMatch(/pages read in one browser/);
  }, 120_000);

  it('follows pages restructured, rows as a grid and a list, messages reshaped', async () => {
    const w = await read({
      checkDecisions: false,
      latitude: parseVary('hub.restructured,hub.rows-grid,hub.rows-list,hub.messages'),
    });
    const hub = HubProfile.parse(w.hub);
    expect(Object.keys(hub.things).sort()).toEqual([...HUB_THINGS].sort());
    // hub.rows-grid: a chart's rows as an ARIA grid; hub.rows-list: the rows behind a point as a
    // list whose items give their cells by role definition.
    expect(hub.rows.chart).toEqual({ structure: 'grid' });
    expect(hub.rows.drillDown).toEqual({ structure: 'list', cell: { role: 'definition' } });
    // hub.messages: the height message in another shape than the plain reference's.
    expect(hub.heightMessage).toBeDefined();
    expect(hub.paramsMessage?.type).toBe('embed:params');
  }, 120_000);
});
