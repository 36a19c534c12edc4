import type { Variant } from './variant.ts';

/** Wrong variants of the v1 tenant flow (§4.9). */
export const tenantsVariants: readonly Variant[] = [
  {
    name: 'register-tenant ignores the expiration it was sent',
    file: 'reference/http/tenants.ts',
    from: '        body.expiration,\n',
    to: '        undefined,\n',
    only: ['identity'],
  },
];
