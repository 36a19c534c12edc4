import { tenantIdentity } from '../../spec/machines/identity.ts';
import { RegisterTenantBody, RegisterTenantFields } from '../../spec/schemas/tenant.ts';
import type { Settings } from '../settings.ts';

/**
 * §4.9 leaves open which registrations name the same tenant. By default (decision
 * tenants.register.identity) the deprecated unique key when given, else the split columns and
 * schema; a server may count the display name as well, and then the same columns under another name
 * are another tenant. A unique key still names one tenant alone, whatever the name.
 */
export function tenantIdentityOf(
  body: Parameters<typeof tenantIdentity>[0] & { readonly name?: string | undefined },
  rule: Settings['tenantIdentity'],
): string {
  const identity = tenantIdentity(body);
  if (rule === 'columns' || body.uniqueKey !== undefined) return identity;
  return `${identity}+name:${JSON.stringify(body.name ?? null)}`;
}

/**
 * §4.9 leaves open whether a tenant may be registered with nothing to split on. By default
 * (decision tenants.register.split-required) one of the columns, the schema or the unique key is
 * required; a server may take a tenant without, one tenant for all such registrations.
 */
export function registerTenantBody(rule: Settings['tenantSplit']): typeof RegisterTenantFields {
  return rule === 'required' ? RegisterTenantBody : RegisterTenantFields;
}
