/**
 * Builds a credentials file (docs/hooks.md) through a target's host hooks, so the
 * credentials mode can be tried against a server whose hooks are then left out of the run:
 *
 *   npx eac serve --hooks --port 8080 &
 *   npx tsx tools/provision-credentials.ts --hooks http://127.0.0.1:8080/__eac --out creds.json
 *   npx eac run --target http://127.0.0.1:8080 --credentials creds.json
 *
 * Each account gets two projects and the roles the suites ask for by permissions (several of
 * the common ones, since one role stands in for one created role per test, and a test that
 * changes a role spoils it for the tests after it).
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    hooks: { type: 'string' },
    out: { type: 'string', default: 'creds.json' },
    accounts: { type: 'string', default: '3' },
  },
});
if (values.hooks === undefined) {
  console.error('usage: provision-credentials --hooks URL [--out FILE] [--accounts N]');
  process.exit(2);
}
const hooks = values.hooks.replace(/\/+$/, '');

async function hook<T>(path: string, body: unknown): Promise<T> {
  const res = await fetch(`${hooks}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as { status?: string; data?: T };
  if (!res.ok || json.status !== 'success' || json.data === undefined)
    throw new Error(`POST ${path} answered ${res.status} ${JSON.stringify(json).slice(0, 200)}`);
  return json.data;
}

type Permissions = Record<string, boolean>;
/** Permission sets the suites ask createRole for, with how many one test may want at once. */
const MAIN_ROLES: readonly [Permissions, number][] = [
  [{}, 24],
  [{ addChart: true }, 16],
  [{ addFilter: true }, 4],
  [{ hideHeader: true }, 1],
  [{ hideHeader: true, addChart: false }, 1],
  [{ drillDown: true }, 1],
  [{ aiInsight: true }, 1],
  [{ aiCharts: true }, 1],
  [{ removeChart: true, aiInsight: true }, 1],
  [{ addDashboard: true, editCharts: true }, 1],
  [{ addChart: true, hideHeader: true, aiCharts: true }, 1],
  [{ addChart: true, aiCharts: true }, 1],
  [{ editCharts: true }, 2],
  [{ editMarketplace: true }, 1],
  [{ hideFilters: true }, 1],
  [{ canDuplicateDashboard: true }, 1],
  [{ addChart: true, drillDown: true }, 1],
  [{ removeChart: true, createChartSQL: true }, 1],
  [{ addFilter: true, drillDown: false }, 1],
];
/** The roles of the siblings suite's worlds, in both projects. */
const SIBLING_ROLES: readonly Permissions[] = [
  { addChart: true, editCharts: true },
  { readOnly: true },
];

const accounts = [];
for (let i = 0; i < Number(values.accounts); i++) {
  const account = await hook<{
    organizationId: string;
    userScopedKey: string;
    orgBoundKey: string;
  }>('/accounts', { name: `provisioned account ${i + 1}` });
  const org = account.organizationId;
  const projects: string[] = [];
  for (const name of ['main', 'sibling']) {
    projects.push(
      (await hook<{ projectId: string }>(`/accounts/${org}/projects`, { name })).projectId,
    );
  }
  const roles: { id: string; projectId: string; permissions: Permissions }[] = [];
  const addRole = async (projectId: string, permissions: Permissions) => {
    const role = await hook<{ id: string }>(`/accounts/${org}/projects/${projectId}/roles`, {
      name: `provisioned ${roles.length + 1}`,
      permissions,
    });
    roles.push({ id: role.id, projectId, permissions });
  };
  const [main = '', sibling = ''] = projects;
  for (const [permissions, count] of MAIN_ROLES) {
    for (let n = 0; n < count; n++) await addRole(main, permissions);
  }
  for (const projectId of [main, sibling]) {
    for (const permissions of SIBLING_ROLES) await addRole(projectId, permissions);
  }
  accounts.push({
    organizationId: org,
    orgBoundKey: account.orgBoundKey,
    userScopedKey: account.userScopedKey,
    projectId: main,
    projects,
    roles,
  });
}
writeFileSync(values.out, `${JSON.stringify({ accounts }, null, 2)}\n`);
console.log(
  `wrote ${values.out}: ${accounts.length} accounts, ${accounts[0]?.roles.length ?? 0} roles each`,
);
