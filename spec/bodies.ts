import type { ClauseId } from './clauses/index.ts';

/**
 * The calls whose success answer the document does not show, so a server may answer them 204
 * or another 2xx with an empty body. Where it does send a body, the preamble's success envelope
 * still holds. Only these calls: every other call of §4 shows at least the envelope
 * (`{status:'success', data: object}` in §4.6, §4.8, §4.11 and §4.12 included), so a body is
 * required there.
 *
 * Reads keep their body though §4.16 shows no more of them than their names: a list
 * (applications, dashboards of an application, §9's list-workspace-dashboards) is called to be
 * read, and §4.16 gives the look-up's answer as `{applicationId, dashboardId}`. An answer with
 * nothing in it would not be the call §4.16 names.
 *
 * A call is named by its `METHOD /path` where §4.16 spells one, else by the profile's name
 * for its endpoint (`shapes.endpoints`, spec/profile.ts): the document gives the v1 create and
 * add-charts a body but no path.
 */
export type OpenBody = {
  readonly id: string;
  readonly section: string;
  /** The clauses that leave the answer open. */
  readonly clauses: readonly ClauseId[];
} & (
  | {
      /** `METHOD /path/{param}` as §4.16 spells it. */
      readonly path: string;
    }
  | {
      /** The profile's name for an endpoint the document gives no path. */
      readonly endpoint: 'v1CreateDashboard' | 'v1AddCharts';
    }
);

const V2 = ['v2.shapes.beyond-named-fields'] as const satisfies readonly ClauseId[];
const V1 = ['dashboards.v1-shapes.not-shown'] as const satisfies readonly ClauseId[];

export const OPEN_BODIES = [
  {
    id: 'v2.create',
    section: '4.16',
    path: 'POST /v2/api/applications/{applicationId}/dashboards',
    clauses: V2,
  },
  {
    id: 'v2.clone',
    section: '4.16',
    path: 'POST /v2/api/applications/{applicationId}/dashboards/{dashboardId}/clone',
    clauses: V2,
  },
  {
    id: 'v2.add-charts',
    section: '4.16',
    path: 'POST /v2/api/applications/{applicationId}/dashboards/{dashboardId}/charts',
    clauses: V2,
  },
  {
    id: 'v2.remove-chart',
    section: '4.16',
    path: 'DELETE /v2/api/applications/{applicationId}/dashboards/{dashboardId}/charts/{chartId}',
    clauses: V2,
  },
  {
    id: 'v2.append-charts',
    section: '4.16',
    path: 'POST /v2/api/applications/{applicationId}/dashboards/{dashboardId}/append-charts',
    clauses: V2,
  },
  { id: 'v1.create', section: '4.16', endpoint: 'v1CreateDashboard', clauses: V1 },
  { id: 'v1.add-charts', section: '4.16', endpoint: 'v1AddCharts', clauses: V1 },
] as const satisfies readonly OpenBody[];

export type OpenBodyId = (typeof OPEN_BODIES)[number]['id'];

/** Every clause that leaves one of these answers open, once. */
export const OPEN_BODY_CLAUSES: readonly ClauseId[] = [
  ...new Set(OPEN_BODIES.flatMap((b) => b.clauses)),
];
