import type { Variant } from './variant.ts';

/**
 * Issue 34, the inventory "every property value class × every path that reads properties"
 * (§1, §2.4: row-level security reads a user's properties as `{{user.<key>}}`). Each variant
 * misreads one class of value on one path only, so the path's own test has to catch it.
 *
 * The classes: a non-empty string, a number (0 included), a boolean (false included), the empty
 * string, null and an absent key. What null and an absent key filter is left open; only "never
 * unfiltered" is required of them, so their variants show such a user the rows unfiltered, on
 * the paths that read rows. The paths: the token (user-token, embed-token), the stored user
 * (register-user), a user update, a saved chart's rows (chart-data hook), chat answers, a page's
 * chart rows, and a page's drill-down rows.
 */

export const VALUE_CLASSES = [
  'a non-empty string',
  'a number',
  'a boolean',
  'the empty string',
  'null',
  'an absent key',
] as const;
export type ValueClass = (typeof VALUE_CLASSES)[number];

export const PROPERTY_PATHS = [
  'the token',
  'the stored user',
  'a user update',
  "a saved chart's rows",
  'chat answers',
  "a page's chart rows",
  "a page's drill-down rows",
] as const;
export type PropertyPath = (typeof PROPERTY_PATHS)[number];

/** How each misread class is misread: one entry per value, [] drops it. */
const MISREAD: Readonly<
  Partial<Record<ValueClass, { readonly how: string; readonly entry: string }>>
> = {
  'a non-empty string': {
    how: 'read in capitals with a stray _',
    entry: "[[k, typeof v === 'string' && v !== '' ? `${v.toUpperCase()}_` : v]]",
  },
  'a number': { how: 'read one higher', entry: "[[k, typeof v === 'number' ? v + 1 : v]]" },
  'a boolean': { how: 'read inverted', entry: "[[k, typeof v === 'boolean' ? !v : v]]" },
  'the empty string': { how: 'dropped', entry: "v === '' ? [] : [[k, v]]" },
};

/** `x` with the class misread (an expression; x may be undefined). */
const misread = (cls: ValueClass, x: string) =>
  `(Object.fromEntries(Object.entries((${x}) ?? {}).flatMap(([k, v]: [string, unknown]) => ${MISREAD[cls]?.entry ?? '[[k, v]]'})) as Record<string, unknown>)`;

/** Where each path reads a user's properties, and the same text reading them misread. */
const SITES: Readonly<
  Record<
    PropertyPath,
    { file: string; within: string; from: string; to: (cls: ValueClass) => string; only: string[] }
  >
> = {
  'the token': {
    file: 'reference/tokens/claims.ts',
    within: 'projectUserClaims',
    from: '    props: user.properties,',
    to: (c) => `    props: ${misread(c, 'user.properties')},`,
    only: ['tokens.user-token.from-stored-user'],
  },
  'the stored user': {
    file: 'spec/machines/identity.ts',
    within: 'registerUser',
    from: '    name: c.name,\n    properties: { ...(c.properties ?? {}) },\n    userRoleId:',
    to: (c) => `    name: c.name,\n    properties: ${misread(c, 'c.properties')},\n    userRoleId:`,
    only: ['resources.user.fields'],
  },
  'a user update': {
    file: 'spec/machines/identity.ts',
    within: 'updateUser',
    from: 'properties: c.properties === undefined ? current.properties : { ...c.properties },',
    to: (c) =>
      `properties: c.properties === undefined ? current.properties : ${misread(c, 'c.properties')},`,
    only: ['users.update.properties-replace'],
  },
  "a saved chart's rows": {
    file: 'reference/hooks/chat.ts',
    within: 'chatHookRoutes',
    from: '          properties: { ...user.value.properties },',
    to: (c) => `          properties: ${misread(c, 'user.value.properties')},`,
    only: [
      'resources.properties.row-level-security',
      'security.data.missing-property-not-unfiltered',
    ],
  },
  'chat answers': {
    file: 'reference/http/chat.ts',
    within: 'chatRoutes',
    from: '    const properties = user.value.properties;',
    to: (c) => `    const properties = ${misread(c, 'user.value.properties')};`,
    only: [
      'resources.properties.row-level-security',
      'security.data.missing-property-not-unfiltered',
    ],
  },
  "a page's chart rows": {
    file: 'reference/hub/rows.ts',
    within: 'loadChartData',
    from: '    chartId: chart.chartId,\n    properties: { ...viewer.properties },',
    to: (c) => `    chartId: chart.chartId,\n    properties: ${misread(c, 'viewer.properties')},`,
    only: ['resources.properties.row-level-security'],
  },
  "a page's drill-down rows": {
    file: 'reference/hub/rows.ts',
    within: 'loadDrillRows',
    from: '    value,\n    properties: { ...viewer.properties },',
    to: (c) => `    value,\n    properties: ${misread(c, 'viewer.properties')},`,
    only: ['resources.properties.row-level-security'],
  },
};

/**
 * The context a path reads rows through, with the row filters on properties of the class
 * dropped from every connection it finds: the rows come unfiltered for such a user, on this
 * path only (the store's data reached past its types).
 */
const unfilteredCtx = (pred: string) =>
  `((): typeof ctx => { const strip = <C>(c: C): C => c === undefined ? c : ({ ...c, rowFilters: (c as { rowFilters: { property: string }[] }).rowFilters.filter((f) => !(${pred})) }); const real = ctx.store.data; const data = Object.assign(Object.create(real) as typeof real, { connection: (o: string, i: string) => strip(real.connection(o, i)), connectionsOf: (o: string) => real.connectionsOf(o).map(strip), seedConnection: (o: string) => strip(real.seedConnection(o)) }); return { ...ctx, store: Object.assign(Object.create(ctx.store) as typeof ctx.store, { data }) }; })()`;

const UNSET_PRED: Readonly<Partial<Record<ValueClass, (props: string) => string>>> = {
  null: (p) => `(${p})[f.property] === null`,
  'an absent key': (p) => `!Object.hasOwn(${p}, f.property)`,
};

/** Null or an absent key lets the rows through unfiltered, on one path that reads rows. */
const UNSET_SITES: Readonly<
  Partial<
    Record<
      PropertyPath,
      {
        file: string;
        within: string;
        from: string;
        to: (pred: string) => string;
        props: string;
        only: string[];
      }
    >
  >
> = {
  "a saved chart's rows": {
    file: 'reference/hooks/chat.ts',
    within: 'chatHookRoutes',
    from: '        const rows = await chartRows(ctx, {',
    to: (pred) => `        const rows = await chartRows(${unfilteredCtx(pred)}, {`,
    props: 'user.value.properties',
    only: ['security.data.missing-property-not-unfiltered'],
  },
  'chat answers': {
    file: 'reference/http/chat.ts',
    within: 'chatRoutes',
    from: '      agent.connectionId === null\n        ? data.seedConnection(account.organizationId)\n        : data.connection(account.organizationId, agent.connectionId);',
    to: (pred) =>
      `      ((c) => c === undefined ? c : { ...c, rowFilters: c.rowFilters.filter((f) => !(${pred})) })(agent.connectionId === null\n        ? data.seedConnection(account.organizationId)\n        : data.connection(account.organizationId, agent.connectionId));`,
    props: 'user.value.properties',
    only: ['security.data.missing-property-not-unfiltered'],
  },
  "a page's chart rows": {
    file: 'reference/hub/rows.ts',
    within: 'loadChartData',
    from: '  const done = await chartRows(ctx, {',
    to: (pred) => `  const done = await chartRows(${unfilteredCtx(pred)}, {`,
    props: 'viewer.properties',
    only: ['security.data.missing-property-not-unfiltered'],
  },
};

/** The variant of one cell, or undefined where the cell is not an instance (see CELLS). */
export function propertyVariant(cls: ValueClass, path: PropertyPath): Variant | undefined {
  const misreading = MISREAD[cls];
  if (misreading !== undefined) {
    const site = SITES[path];
    return {
      name: `properties: ${cls} ${misreading.how} on ${path}`,
      file: site.file,
      within: site.within,
      from: site.from,
      to: site.to(cls),
      only: site.only,
    };
  }
  const pred = UNSET_PRED[cls];
  const site = UNSET_SITES[path];
  if (pred === undefined || site === undefined) return undefined;
  return {
    name: `properties: ${cls} lets ${path} through unfiltered`,
    file: site.file,
    within: site.within,
    from: site.from,
    to: site.to(pred(site.props)),
    only: site.only,
  };
}

export const propertiesVariants: readonly Variant[] = VALUE_CLASSES.flatMap((cls) =>
  PROPERTY_PATHS.flatMap((path) => propertyVariant(cls, path) ?? []),
);
