import { expect } from 'vitest';
import { buildWorld, registerOrganization } from '../harness/given/accounts.ts';
import { conformance } from '../harness/conformance.ts';
import { chatUser, parts, theChart } from './kit.ts';
import { GRAMMAR, chat, chatBody, expectStream, pairs } from '../harness/chat.ts';

// The reference agent's data (docs/reference-agent.md): an agent made without a
// connection reaches the seeded `orders` table, whose default row filter shows a user only the
// rows of the organization its property `organization` names. Needs the capability
// agent-grammar.

conformance(
  ['chat.result.chart-data-rows', 'chat.auth.token-scopes-data'],
  'an agent made without a connection answers from the seeded orders, the rows of the user\u2019s organization only',
  async (t) => {
    const w = await buildWorld(t);
    const { agentId } = await t.hooks.createAgent(w.account.organizationId, w.projectId, {
      name: 'Seeded analyst',
    });
    const org = await registerOrganization(t, w, { properties: { organization: 'Acme' } });
    const user = await chatUser(t, w, org.projectOrganizationId, {
      organization: 'Acme',
      tenant: 'Acme',
      region: 'North',
    });
    const answer = expectStream(
      await chat(t, agentId, user.token, chatBody(agentId, { question: 'count by organization' })),
      'count by organization',
    );
    const counts = pairs(theChart(answer, 'count by organization').chartData);
    expect(Object.keys(counts), 'the seeded rows of Acme only').toEqual(['Acme']);
    expect(counts['Acme'], 'a count of Acme orders').toBeGreaterThan(0);
  },
  { needs: GRAMMAR, parts, timeout: 120_000 },
);
