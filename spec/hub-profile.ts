import { z } from 'zod';

/**
 * The hub section of a target profile: how a browser finds each thing §4.17 and §2.2 speak of
 * on the target's embedded pages. The suites never look for CSS classes or ids of ours: every
 * thing is an ARIA role and, where the role alone is not enough, an accessible name. A thing
 * the profile does not name is not-run for that target, never a failure.
 *
 * Names may hold one placeholder in braces, filled by the suite from the world it built:
 * `{title}` (a chart's title), `{label}` (a filter control's label), `{value}` (a chart point's
 * dimension value), `{name}` (a dashboard's name).
 */

/** One thing on a page: an ARIA role and, optionally, its accessible name (exact). */
export const HubLocator = z
  .object({
    role: z.string().regex(/^[a-z]+$/, 'an ARIA role such as "button"'),
    name: z.string().min(1).optional(),
  })
  .strict();
export type HubLocator = z.infer<typeof HubLocator>;

/** The editing tools, one per §2.2 flag: the group §2.2 readOnly takes away whole. */
export const EDITING_TOOLS = [
  'addChart',
  'addFilter',
  'createChart',
  'createChartSQL',
  'editCharts',
  'removeChart',
  'addDashboard',
] as const;

/** The things a hub suite may look for; each optional. */
export const HUB_THINGS = [
  /** The page header (§2.2 hideHeader, §4.17 hideHeader=true). */
  'header',
  /** Navigation between an application's dashboards (§4.17, the sidebar). */
  'navigation',
  /** One entry of that navigation, by dashboard name: `{name}`. */
  'navigationEntry',
  /** Tabbed display of the dashboards (§2.2 disableTabs). */
  'tabs',
  /** The filter bar (§2.2 hideFilters). */
  'filterBar',
  /** A controlled filter's input in the filter bar, by its label: `{label}`. */
  'filterInput',
  /** A chart, by its title: `{title}`; holds the rows it shows (`rows.chart`). */
  'chart',
  /** The PDF download control (§2.2 hideDownloadButton, §4.17 hideDownloadButton=true). */
  'download',
  /** The Schedule Report control of the header (§2.2 enableScheduleReport). */
  'scheduleReport',
  /** Set as default dashboard (§2.2 canSetDefaultDashboard). */
  'setDefault',
  /** Duplicate the dashboard into the user's own (§2.2 canDuplicateDashboard). */
  'duplicate',
  /** The AI insights sidebar's opener (§2.2 aiInsight). */
  'aiInsight',
  /** The AI insights sidebar itself, once opened (§2.2 aiInsight). */
  'aiInsightSidebar',
  /** Create charts by asking AI (§2.2 aiCharts). */
  'aiCharts',
  /**
   * Edit a chart from the agent chat session (§2.2 canEditChartFromSession): one control per
   * such chart, `{title}`, or one for the dashboard (a name without a placeholder).
   */
  'editFromSession',
  /** The group of editing tools (§2.2 readOnly: none of them). */
  'editingTools',
  ...EDITING_TOOLS,
  /** Drill into one point of a chart: `{value}` (§2.2 drillDown). */
  'drillDown',
  /** What drilling into a point shows: the rows behind it, `{value}` (`rows.drillDown`). */
  'drillDownRows',
] as const;
export type HubThing = (typeof HUB_THINGS)[number];

const things = Object.fromEntries(HUB_THINGS.map((t) => [t, HubLocator.optional()])) as {
  [K in HubThing]: z.ZodOptional<typeof HubLocator>;
};

/** A message the page posts to its parent, when the document leaves its shape open. */
const MessageShape = z
  .object({
    /** The message's `type` member. */
    type: z.string().min(1),
    /** The member holding the value (the height in CSS pixels, for `height`). */
    field: z.string().min(1),
  })
  .strict();

/** The one placeholder each thing's name may hold; the others hold none. */
export const HUB_PLACEHOLDERS: Partial<Record<HubThing, string>> = {
  navigationEntry: 'name',
  filterInput: 'label',
  chart: 'title',
  editFromSession: 'title',
  drillDown: 'value',
  drillDownRows: 'value',
};

const thingsWithPlaceholders = z.strictObject(things).superRefine((stated, ctx) => {
  for (const [thing, locator] of Object.entries(stated) as [HubThing, HubLocator | undefined][]) {
    const allowed = HUB_PLACEHOLDERS[thing];
    for (const [, key] of locator?.name?.matchAll(/\{(\w+)\}/g) ?? []) {
      if (key !== allowed)
        ctx.addIssue({
          code: 'custom',
          path: [thing, 'name'],
          message: allowed
            ? `the name of ${thing} may hold {${allowed}} only, not {${key}}: write {${allowed}} where the page puts it, or the name as the page shows it`
            : `the name of ${thing} takes no placeholder ({${key}} is never filled for it): write the name as the page shows it`,
        });
    }
  }
});

/** An ARIA role, as the locators name one. */
const Role = z.string().regex(/^[a-z]+$/, 'an ARIA role such as "cell"');

/**
 * How a page lays out rows it shows (§4.17 fixes no markup): a table (role table, rows of role
 * row, cells of role cell, gridcell or rowheader, column heads of role columnheader), an ARIA
 * grid (role grid, the same rows and cells), or a list (role list, one row per listitem). A
 * list states how an item gives its cells: `cell`, the ARIA role of each cell inside the item,
 * or `separator`, the text between the cells of the item's text. A list has no column heads.
 */
export const RowStructure = z.discriminatedUnion('structure', [
  z.object({ structure: z.literal('table') }).strict(),
  z.object({ structure: z.literal('grid') }).strict(),
  z
    .object({
      structure: z.literal('list'),
      cell: z.object({ role: Role }).strict().optional(),
      separator: z.string().min(1).optional(),
    })
    .strict()
    .refine((list) => (list.cell === undefined) !== (list.separator === undefined), {
      message:
        'a list states how an item gives its cells: either cell (the ARIA role of a cell inside the item) or separator (the text between the cells of the item), one of the two',
    }),
]);
export type RowStructure = z.infer<typeof RowStructure>;

const TABLE: RowStructure = { structure: 'table' };

/** Where rows are shown: in a chart, and behind a drilled point. A table unless stated. */
const RowPlaces = z
  .object({
    chart: RowStructure.default(TABLE),
    drillDown: RowStructure.default(TABLE),
  })
  .strict();
export type RowPlace = keyof z.infer<typeof RowPlaces>;

export const HubProfile = z
  .object({
    things: thingsWithPlaceholders.default({}),
    /** How the rows of a chart and those behind a drilled point are laid out (tables if unstated). */
    rows: RowPlaces.default({ chart: TABLE, drillDown: TABLE }),
    /** §4.17 autoHeight: the message carrying the content height. */
    heightMessage: MessageShape.optional(),
    /**
     * §4.17: the `embed:params` message; `field` names the member holding the filters as an
     * object `filter_<controlKey>` -> the JSON text (the type is always 'embed:params').
     */
    paramsMessage: MessageShape.optional(),
    /**
     * §9: which page shows a v1 dashboard as it was at finalize (the "v1 dashboard component"):
     * the dashboard page for a v1 dashboard id, and the application page for a v1 workspace id.
     */
    v1Component: z.enum(['dashboard-and-application-pages', 'dashboard-page']).optional(),
    /**
     * §2.2 enableScheduleReport: which organizations have scheduled reports enabled: `all`, or
     * `none` (the Schedule Report control then never shows).
     */
    scheduledReports: z.enum(['all', 'none']).optional(),
  })
  .strict();
export type HubProfile = z.infer<typeof HubProfile>;

/** Fills the placeholder of a locator's name. */
export function locatorName(
  locator: HubLocator,
  values: Readonly<Record<string, string>> = {},
): string | undefined {
  return locator.name?.replace(/\{(\w+)\}/g, (whole, key: string) => values[key] ?? whole);
}
