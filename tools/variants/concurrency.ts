import type { Variant } from './variant.ts';

/**
 * Wrong variants for the concurrency oracle (issue 11, part 5): handlers that split a
 * read-modify-write across an `await`, so two requests in flight at once can lose an update.
 * One client at a time never shows it; suites/concurrency must.
 */
export const concurrencyVariants: readonly Variant[] = [
  {
    name: 'v1 add-charts reads the account dashboards, awaits, then writes its stale copy back (lost updates)',
    file: 'reference/http/dashboards.ts',
    within: 'dashboardRoutes',
    from: `    handle: ({ principal, body }) => {
      const who = v1Writer(caller(principal));
      if (!who.ok) return who;
      const refused = connectionRefusal(who.value.account.dashboards, body.connectionId);
      if (refused !== undefined) return errDone(refused);
      const gone = migrated(who.value.account, 'addCharts', {`,
    to: `    handle: async ({ principal, body }) => {
      const who = v1Writer(caller(principal));
      if (!who.ok) return who;
      const stale = who.value.account.dashboards;
      await new Promise((resolve) => setTimeout(resolve, 2));
      who.value.account.dashboards = stale;
      const refused = connectionRefusal(who.value.account.dashboards, body.connectionId);
      if (refused !== undefined) return errDone(refused);
      const gone = migrated(who.value.account, 'addCharts', {`,
    only: ['concurrency'],
  },
  {
    name: 'role update reads the account identity, awaits, then writes its stale copy back (lost registrations, a deleted role back)',
    file: 'reference/http/roles.ts',
    within: 'roleRoutes',
    from: `    handle: ({ principal, params, body }) => {
      const done = ctx.store.identity(caller(principal).account, {
        type: 'updateRole',`,
    to: `    handle: async ({ principal, params, body }) => {
      const stale = caller(principal).account.identity;
      await new Promise((resolve) => setTimeout(resolve, 2));
      caller(principal).account.identity = stale;
      const done = ctx.store.identity(caller(principal).account, {
        type: 'updateRole',`,
    only: ['concurrency'],
  },
];
