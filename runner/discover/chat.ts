/** Discover: where a chat answer reports its agent version. */
import type { World } from '../../suites/harness/given/accounts.ts';
import { registerOrganization, registerUser } from '../../suites/harness/given/accounts.ts';
import { chatPath, USER_TOKEN } from '../../suites/harness/paths.ts';
import { readStreamText } from '../../suites/harness/sse.ts';
import { dataOf, isObject, pathsWhere, pointer, valueAt, type Watch } from './watch.ts';

/** Where a chat answer reports the version that answered: pinned to 2, then to 1. */
export async function chatVersion(w: Watch, world: World) {
  const { t } = w;
  if (!t.target.hooks.includes('agents')) {
    w.cannot('the chat part and chat.versionReport', 'the target announces no agents hook');
    return;
  }
  // A small table of the kit's own behind the agent, when the target takes one (hook
  // connections), filtered by a property the user holds; the target's own data otherwise.
  const region = `north-${t.faker.string.alpha(4)}`;
  const connection = t.target.hooks.includes('connections')
    ? await t.hooks.createConnection(world.account.organizationId, {
        name: 'sales (eac discover)',
        table: {
          name: 'sales',
          columns: [
            { name: 'region', type: 'text' },
            { name: 'amount', type: 'number' },
          ],
          rows: [
            { region, amount: 12 },
            { region, amount: 30 },
          ],
        },
        rowFilters: [{ column: 'region', property: 'region' }],
      })
    : undefined;
  const org = await registerOrganization(t, world);
  const { userId } = await registerUser(t, world, {
    projectOrganizationId: org.projectOrganizationId,
    properties: { region },
  });
  const tokenRes = await t.http.post(USER_TOKEN, { ...world.creds(), userId });
  const tokenData = dataOf(tokenRes);
  const token = isObject(tokenData) ? tokenData['token'] : undefined;
  if (typeof token !== 'string') return;
  const agent = await t.hooks.createAgent(
    world.account.organizationId,
    world.projectId,
    connection === undefined ? {} : { connectionId: connection.connectionId },
  );
  const { version } = await t.hooks.addAgentVersion(
    world.account.organizationId,
    world.projectId,
    agent.agentId,
  );
  const ask = async (pinned: number) => {
    const res = await t.http.post(
      chatPath(agent.agentId),
      {
        messages: [{ role: 'user', content: 'total amount by region' }],
        payload: { agent_id: agent.agentId, agent_version: pinned },
      },
      { headers: { accept: 'text/event-stream', authorization: `Bearer ${token}` } },
    );
    return {
      res,
      events: readStreamText(res.text).events.flatMap((e) => ('json' in e ? [e.json] : [])),
    };
  };
  const latest = await ask(version);
  if (!(latest.res.headers['content-type'] ?? '').startsWith('text/event-stream')) {
    w.cannot(
      'the chat part',
      `the chat route answered ${latest.res.status} without an event stream: ${latest.res.text.slice(0, 200)}`,
    );
    return;
  }
  w.serves.add('chat');
  w.saw(`chat: the agent answered an event stream (${latest.events.length} events)`);
  const first = await ask(1);
  for (const event of latest.events) {
    const type = isObject(event) ? event['type'] : undefined;
    if (typeof type !== 'string') continue;
    for (const path of pathsWhere(event, (v) => v === version)) {
      const at = pointer(path);
      const again = first.events.find((e) => isObject(e) && e['type'] === type);
      if (again !== undefined && valueAt(again, path) === 1) {
        w.chat = { versionReport: { event: type, pointer: at } };
        w.saw(
          `chat: the answering version is at ${type} ${at} (${version} when pinned to ${version}, 1 when pinned to 1)`,
        );
        w.review.push(
          `chat.examples: write questions in your agent's own words by hand (docs/targets-and-profiles.md)`,
        );
        return;
      }
    }
  }
  w.cannot('chat.versionReport', 'no event holds the pinned version at one place for both pins');
}
