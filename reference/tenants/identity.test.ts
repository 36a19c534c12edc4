import { describe, expect, it } from 'vitest';
import { tenantIdentityOf } from './identity.ts';

// §4.9 leaves open which registrations name the same tenant: by the columns and schema (or the
// unique key) alone, or with the display name too.
describe('tenant identity', () => {
  const columns = { customer_id: 'c-17', region: 'eu' };
  const reordered = { region: 'eu', customer_id: 'c-17' };

  it('by columns: the name does not count, the order of the columns neither', () => {
    const a = tenantIdentityOf({ tenantColumns: columns, name: 'Acme' }, 'columns');
    expect(tenantIdentityOf({ tenantColumns: reordered, name: 'Other' }, 'columns')).toBe(a);
    expect(tenantIdentityOf({ tenantColumns: columns }, 'columns')).toBe(a);
    expect(tenantIdentityOf({ tenantColumns: { ...columns, region: 'us' } }, 'columns')).not.toBe(
      a,
    );
  });

  it('with the name: another name (or none) is another tenant, the same name the same one', () => {
    const rule = 'columns-and-name';
    const a = tenantIdentityOf({ tenantColumns: columns, name: 'Acme' }, rule);
    expect(tenantIdentityOf({ tenantColumns: reordered, name: 'Acme' }, rule)).toBe(a);
    expect(tenantIdentityOf({ tenantColumns: columns, name: 'Other' }, rule)).not.toBe(a);
    expect(tenantIdentityOf({ tenantColumns: columns }, rule)).not.toBe(a);
    expect(tenantIdentityOf({ tenantColumns: columns }, rule)).toBe(
      tenantIdentityOf({ tenantColumns: reordered }, rule),
    );
    // The schema still counts beside the name.
    expect(
      tenantIdentityOf({ tenantColumns: columns, tenantSchema: 's2', name: 'Acme' }, rule),
    ).not.toBe(a);
  });

  it('a unique key names one tenant alone under either rule, whatever the name', () => {
    for (const rule of ['columns', 'columns-and-name'] as const) {
      const a = tenantIdentityOf({ uniqueKey: 'k1', name: 'Acme' }, rule);
      expect(tenantIdentityOf({ uniqueKey: 'k1', name: 'Other' }, rule), rule).toBe(a);
      expect(tenantIdentityOf({ uniqueKey: 'k2', name: 'Acme' }, rule), rule).not.toBe(a);
    }
  });
});
