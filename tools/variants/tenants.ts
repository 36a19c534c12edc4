import type { Variant } from './variant.ts';

/** Wrong variants of the v1 tenant flow (§4.9). */
export const tenantsVariants: readonly Variant[] = [
  {
    name: 'register-tenant ignores the expiration it was sent',
    file: 'reference/http/tenants.ts',
    within: 'handle',
    from: '        body.expiration,\n',
    to: '        undefined,\n',
    only: ['identity'],
  },
  {
    // Stryker's sample (reference/http/tenants.ts:48:32): the answer's message emptied.
    name: 'register-tenant answers an empty message',
    decision: 'tenants.token.claims',
    file: 'reference/http/tenants.ts',
    within: 'handle',
    from: "okDone({ message: 'The tenant was registered.', token: issued.token })",
    to: "okDone({ message: '', token: issued.token })",
    only: ['tenants.token.claims'],
  },
];
