import type { Model } from '../harness/linearizability.ts';

/**
 * Sequential models of the entities the concurrent clients touch, written from the document
 * (not from any implementation): what one entity answers when requests reach it one at a time.
 * Where the document leaves an answer open, the model accepts any answer and keeps the state;
 * the workload avoids those cases where it can.
 */

// ── A role (§2.1, §3, §4.1–§4.3) ──

/**
 * The flags every write sets explicitly, so a read can be compared flag by flag: four whose
 * §2.2 default is off whatever the role, so a read leaving one out means false.
 */
export const FLAGS = ['disableTabs', 'hideHeader', 'hideDownloadButton', 'hideFilters'] as const;

/** A role as a read shows it: its name and its FLAGS, or gone. */
export type RoleState = { readonly name: string; readonly permissions: string } | null;

export type RoleInput =
  | { readonly kind: 'update'; readonly name: string; readonly permissions: string }
  | { readonly kind: 'read' }
  | { readonly kind: 'delete' };

export type RoleOutput =
  | { readonly kind: 'update'; readonly ok: boolean; readonly name?: string }
  | { readonly kind: 'read'; readonly role: RoleState }
  | { readonly kind: 'delete'; readonly ok: boolean };

export const roleModel: Model<RoleState, RoleInput, RoleOutput> = {
  step(state, input, output) {
    switch (input.kind) {
      case 'update':
        if (output.kind !== 'update') return undefined;
        // §4.1 says nothing of an update of a role that is gone (roles.update.unknown-role).
        if (state === null) return output.ok ? undefined : null;
        // §4.1: the name is the new name, permissions replace the flags; 200 with the role.
        if (!output.ok) return undefined;
        if (output.name !== undefined && output.name !== input.name) return undefined;
        return { name: input.name, permissions: input.permissions };
      case 'read':
        // §4.2: the list shows the role as it is; §3: a deleted role is not listed.
        if (output.kind !== 'read') return undefined;
        if (state === null || output.role === null)
          return state === output.role ? state : undefined;
        return state.name === output.role.name && state.permissions === output.role.permissions
          ? state
          : undefined;
      case 'delete':
        if (output.kind !== 'delete') return undefined;
        // §4.3: 200 and the role is gone; a second delete's answer is open (roles.delete.twice).
        if (state === null) return null;
        return output.ok ? null : undefined;
    }
  },
  key: (s) => (s === null ? 'gone' : `${s.name}|${s.permissions}`),
  describe(input, output) {
    if (input.kind === 'update')
      return `update role to ${input.name} {${input.permissions}} -> ${output.kind === 'update' && output.ok ? 'ok' : 'refused'}`;
    if (input.kind === 'delete')
      return `delete role -> ${output.kind === 'delete' && output.ok ? 'ok' : 'refused'}`;
    const role = output.kind === 'read' ? output.role : null;
    return `list roles -> ${role === null ? 'not listed' : `${role.name} {${role.permissions}}`}`;
  },
};

// ── A project user (§2.4, §4.5–§4.7) ──

/** Whether the user is registered. */
export type UserState = boolean;

export type UserInput =
  { readonly kind: 'register' } | { readonly kind: 'update' } | { readonly kind: 'token' };

/** Whether the service answered with success (2xx). */
export interface UserOutput {
  readonly ok: boolean;
}

export const userModel: Model<UserState, UserInput, UserOutput> = {
  step(state, input, output) {
    switch (input.kind) {
      // §4.5: a registration with a fresh userId succeeds and the user exists from then on.
      case 'register':
        return output.ok ? true : undefined;
      // §4.6: updating a registered user with a name succeeds (of an unknown one: not said).
      case 'update':
        return state && !output.ok ? undefined : state;
      // §4.7: a token is issued for a previously registered user, and only for one.
      case 'token':
        return output.ok === state ? state : undefined;
    }
  },
  key: String,
  describe: (input, output) => `${input.kind} -> ${output.ok ? 'ok' : 'refused'}`,
};

// ── A dashboard's layout (§4.12, the v1 add-charts §4.16 names) ──

/** The chart ids on the layout, sorted and joined (order is not judged here). */
export type LayoutState = string;

export type LayoutInput =
  | { readonly kind: 'add'; readonly chartId: string }
  | { readonly kind: 'remove'; readonly chartId: string }
  | { readonly kind: 'read' };

export type LayoutOutput =
  | { readonly kind: 'add' | 'remove'; readonly ok: boolean }
  | { readonly kind: 'read'; readonly layout: LayoutState | null };

export const layoutOf = (chartIds: readonly string[]): LayoutState =>
  [...new Set(chartIds)].sort().join(',');

const members = (s: LayoutState) => new Set(s === '' ? [] : s.split(','));

export const layoutModel: Model<LayoutState, LayoutInput, LayoutOutput> = {
  step(state, input, output) {
    const on = members(state);
    switch (input.kind) {
      case 'add':
        // Adding a chart already on the layout is open (dashboards.v1-add-charts.repeat).
        if (on.has(input.chartId)) return state;
        return output.kind === 'add' && output.ok ? layoutOf([...on, input.chartId]) : undefined;
      case 'remove':
        // A chart not on the layout is open (dashboards.remove-charts.unknown-chart).
        if (!on.has(input.chartId)) return state;
        // §4.12: the listed charts disappear from the layout.
        on.delete(input.chartId);
        return output.kind === 'remove' && output.ok ? layoutOf([...on]) : undefined;
      case 'read':
        return output.kind === 'read' && output.layout === state ? state : undefined;
    }
  },
  key: (s) => s,
  describe(input, output) {
    if (input.kind === 'read')
      return `list -> [${output.kind === 'read' ? (output.layout ?? 'not listed') : '?'}]`;
    return `${input.kind} ${input.chartId} -> ${'ok' in output && output.ok ? 'ok' : 'refused'}`;
  },
};
