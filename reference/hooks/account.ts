import { specError, type SpecError } from '../../spec/errors.ts';
import { errDone } from '../http/route.ts';
import type { Done } from '../done.ts';
import type { AccountRecord, Store } from '../store/store.ts';

/**
 * A host hook's 404 (spec/hooks.openapi.yaml, response NotFound): `details.resource` the kind
 * of the unknown id and `details.field` the path or body field that named it.
 */
export const hookNotFound = (resource: string, field: string): SpecError =>
  specError('NOT_FOUND', `no ${resource} with that ${field} here`, { resource, field });

/** Runs `fn` on the account the path names, or answers the hooks' 404 for an unknown one. */
export function withHookAccount<T>(
  store: Store,
  organizationId: string,
  fn: (a: AccountRecord) => Done<T> | Promise<Done<T>>,
): Done<T> | Promise<Done<T>> {
  const account = store.account(organizationId);
  return account === undefined ? errDone(hookNotFound('account', 'organizationId')) : fn(account);
}
