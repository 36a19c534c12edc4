import { expect } from 'vitest';
import { SaveFromChatResponse } from '../../spec/schemas/chart.ts';
import { Token } from '../../spec/schemas/token.ts';
import { expectedPermissions } from '../../fixtures/oracles/index.ts';
import { conformance } from '../harness/conformance.ts';
import { describeAnswer, expectSuccess } from '../harness/expect.ts';
import {
  createRole,
  registerOrganization,
  registerUser,
  userToken,
} from '../harness/given/accounts.ts';
import {
  CONTENT,
  TENANT_FIELDS,
  dashboardsWorld,
  tenantToken,
  v1Post,
} from '../harness/given/dashboards.ts';
import { SAVE_FROM_CHAT } from '../harness/paths.ts';

// §5 rule 4: save-from-chat takes an API key, a tenant JWT or a project-user JWT. Whether it
// also checks the §2.2 flags of the tenant or the user is left open
// (charts.save-from-chat.permissions), so the tenant and the user here hold every flag but
// readOnly (the one flag that takes editing away, §2.2): whichever flag a target checks, if
// any, they have it, and a refusal can only be of the credential.
const EVERY_GRANT = Object.fromEntries(
  expectedPermissions.flags.filter((flag) => flag !== 'readOnly').map((flag) => [flag, true]),
);
const Saved = SaveFromChatResponse.shape.data;

/** A small chartConfig in the shape of §2.6. */
function chartConfig(title: string): Record<string, unknown> {
  return {
    title,
    type: 'bar',
    dimensions: [{ name: 'month', field: 'created_at', label: 'Month', type: 'time' }],
    measures: [{ name: 'total', field: 'amount', label: 'Total', aggregation: 'sum' }],
    sqlOverride:
      "SELECT date_trunc('month', created_at) AS month, sum(amount) AS total FROM orders GROUP BY 1 ORDER BY 1",
  };
}

conformance(
  ['auth.save-from-chat.carriers', 'auth.header.dashboard-writes'],
  'save-from-chat accepts an API key, a tenant JWT and a project-user JWT, each of every editing flag',
  async (t) => {
    const w = await dashboardsWorld(t, 0);
    const role = await createRole(t, w, EVERY_GRANT);
    const org = await registerOrganization(t, w);
    const { userId } = await registerUser(t, w, {
      projectOrganizationId: org.projectOrganizationId,
      userRoleId: role.id,
    });
    const projectUserToken = expectSuccess(
      await userToken(t, w, userId),
      Token,
      'asking a user token',
    ).token;
    const credentials: [string, string][] = [
      ['an API key in the authorization header', w.creds().apiKey],
      ['a tenant JWT', await tenantToken(t, w, EVERY_GRANT)],
      ['a project-user JWT', projectUserToken],
    ];
    for (const [what, secret] of credentials) {
      const res = await v1Post(t, SAVE_FROM_CHAT, secret, {
        chartConfig: chartConfig(`Saved with ${what}`),
        name: `Saved with ${what}`,
      });
      expect(res.status, `save-from-chat with ${what}: ${describeAnswer(res)}`).toBe(200);
      expect(
        Saved.safeParse((res.body as { data?: unknown }).data).success,
        `save-from-chat with ${what}: data is {chartId, name}, got ${res.text.slice(0, 300)}`,
      ).toBe(true);
    }
  },
  {
    needs: [...CONTENT, 'roles'],
    parts: ['v1-dashboards', 'identity', 'tenant-flow'],
    relies: TENANT_FIELDS,
  },
);
