import { describe, expect, it } from 'vitest';
import { PERMISSION_FLAGS } from '../schemas/permissions.ts';
import { EDITING_FLAGS, effectivePermissions, grantsEditing } from './permissions.ts';

// §2.2: table defaults and the three editing rules.
describe('effectivePermissions', () => {
  it('gives a role with one editing flag the editing defaults', () => {
    const p = effectivePermissions({ editCharts: true });
    expect(p).toMatchObject({
      addChart: true,
      addFilter: true,
      createChart: true,
      removeChart: true,
      canDuplicateDashboard: true,
      addDashboard: true,
      editCharts: true,
      createChartSQL: false,
      readOnly: false,
      drillDown: false,
      canSetDefaultDashboard: true,
      canEditChartFromSession: true,
    });
  });

  it('lets readOnly switch off every editing flag and drill-down', () => {
    const p = effectivePermissions({
      readOnly: true,
      addChart: true,
      createChart: true,
      createChartSQL: true,
      drillDown: true,
    });
    for (const flag of EDITING_FLAGS) expect(p[flag], flag).toBe(false);
    expect(p.drillDown).toBe(false);
    expect(p.createChartSQL).toBe(false);
  });

  it('treats an empty role and no role alike: view-only', () => {
    expect(effectivePermissions({})).toEqual(effectivePermissions(null));
    expect(grantsEditing({})).toBe(false);
    expect(grantsEditing(null)).toBe(false);
    const p = effectivePermissions(null);
    expect(PERMISSION_FLAGS.filter((f) => p[f])).toEqual([
      'canSetDefaultDashboard',
      'canEditChartFromSession',
    ]);
  });

  it('keeps createChartSQL off without createChart', () => {
    expect(
      effectivePermissions({ addChart: true, createChart: false, createChartSQL: true })
        .createChartSQL,
    ).toBe(false);
    expect(effectivePermissions({ createChart: true, createChartSQL: true }).createChartSQL).toBe(
      true,
    );
  });

  it('honours an explicit false over an editing default', () => {
    expect(effectivePermissions({ addChart: true, removeChart: false }).removeChart).toBe(false);
  });

  it('keeps explicitly set non-editing flags on a view-only role', () => {
    expect(effectivePermissions({ hideHeader: true, aiCharts: true })).toMatchObject({
      hideHeader: true,
      aiCharts: true,
      addChart: false,
    });
  });
});
