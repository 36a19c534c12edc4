import { tenantIdentity } from '../../spec/machines/identity.ts';
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
