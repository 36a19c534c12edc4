import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { closingSummary } from './run.ts';
import { sampleResults } from '../reports/sample-results.ts';

describe('closingSummary', () => {
  const text = closingSummary(sampleResults(), 'reports/runs/x', 'reports/latest');

  it('prints the report paths absolute', () => {
    expect(text).toContain(`Report: ${path.resolve('reports/runs/x', 'index.html')} `);
    expect(text).toContain(`        ${path.resolve('reports/latest')} -> x`);
  });

  it('states the profile, the coverage kinds and what each missing hook cost', () => {
    expect(text).toContain('profile reference default: serves identity, tenant-flow');
    expect(text).toMatch(/coverage: must\/observed 2 portable \+ 1 through a decision of \d+/);
    expect(text).toMatch(/not-run by cause:\n\s+1 {2}missing hook clock/);
  });
});
