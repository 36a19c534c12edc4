import type { Variant } from './variant.ts';

/** The accounts the reference holds, reached past its types (a variant is not type-checked). */
const ACCOUNTS =
  '[...(ctx.store as unknown as { accounts: Map<string, Parameters<typeof ctx.store.identity>[0]> }).accounts.values()]';

/**
 * Issue 34, the inventory "every piece of keyed state × every dimension it is keyed by": the
 * cells no other file's variant breaks alone. Each variant drops one dimension from one key.
 */
export const keyedVariants: readonly Variant[] = [
  {
    // §8: 180 a minute per organization plus user. A userId is the caller's to choose (§2.4,
    // §4.5), so two accounts may each hold a user of the same id: they are two windows. (The
    // reference keeps its windows in each account's namespace; this one keeps them in one map
    // for the whole service, keyed by the userId.)
    name: 'keyed: the chat rate window keyed by the userId alone, shared across accounts',
    file: 'reference/http/chat.ts',
    within: 'chatRoutes',
    from: '      account.chat.rates,\n      rateKey(account.organizationId, user.value.projectOrganizationId, userId),',
    to: '      ((globalThis as { eacRates?: typeof account.chat.rates }).eacRates ??= new Map()),\n      userId,',
    only: ['limits.chat.rate'],
  },
  {
    // §4.15: a thread is the session of the user who keeps it; another user naming the same
    // thread_id starts from nothing of it.
    name: "keyed: a thread keyed by its thread_id alone, another user's follow-up continues it",
    file: 'reference/http/chat.ts',
    within: 'chatRoutes',
    from: ': `${account.organizationId}\\u0000${userId}\\u0000${body.value.thread_id}`;',
    to: ': `${account.organizationId}\\u0000${body.value.thread_id}`;',
    only: ['chat.thread', 'security.data.rows-of-the-user'],
  },
  {
    // §4.7: userId names "a previously registered project user" of the caller's account.
    name: 'keyed: user-token finds the userId in any account',
    file: 'reference/http/tokens.ts',
    within: 'tokenRoutes',
    from: '      const user = account.identity.users[body.userId];\n      if (user === undefined) {',
    to: `      const user = account.identity.users[body.userId] ?? ${ACCOUNTS}.map((a) => a.identity.users[body.userId]).find((u) => u !== undefined);\n      if (user === undefined) {`,
    only: ['auth.isolation', 'tokens.user-token'],
  },
];
