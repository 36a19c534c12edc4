/** Discover: the parts behind credentials and how the authorization header carries an API key. */
import type { World } from '../../suites/harness/given/accounts.ts';
import {
  APPLICATIONS,
  CLONE,
  LIST_WORKSPACES,
  REGISTER_TENANT,
} from '../../suites/harness/paths.ts';
import { ok, routeAnswers, type Watch } from './watch.ts';

/** Parts behind credentials, and how the authorization header carries an API key. */
export async function routesWithCredentials(w: Watch, world: World) {
  const { t } = w;
  const list = await t.http.get(LIST_WORKSPACES, { query: world.creds() });
  if (ok(list)) {
    w.serves.add('v1-dashboards');
    w.saw(`v1-dashboards: list-workspaces answered ${list.status}`);
  } else if (routeAnswers(list)) {
    w.serves.add('v1-dashboards');
    w.review.push(`serves v1-dashboards: list-workspaces answered ${list.status}, not a success`);
  } else w.saw(`v1-dashboards: list-workspaces answered ${list.status}: not served`);
  const tenant = await t.http.post(REGISTER_TENANT, { ...world.creds() });
  if (routeAnswers(tenant)) {
    w.serves.add('tenant-flow');
    w.saw(`tenant-flow: register-tenant answered ${tenant.status} to a body of credentials only`);
  } else w.saw(`tenant-flow: register-tenant answered ${tenant.status}: not served`);
  const apps = await t.http.get(APPLICATIONS, { query: world.creds() });
  if (routeAnswers(apps)) {
    w.serves.add('v2');
    w.saw(`v2: the application list answered ${apps.status}`);
  } else w.saw(`v2: the application list answered ${apps.status}: not served`);

  // §5: an API key in the authorization header, bare or after Bearer. A clone of an id nobody
  // has: a refused key answers 401, an accepted one anything else (most likely 404).
  if (!w.serves.has('v1-dashboards')) {
    w.cannot('shapes.authorizationHeader', 'the v1 dashboard calls that read it are not served');
    return;
  }
  const key = world.creds().apiKey;
  const cloneBody = { dashboardId: t.faker.string.uuid(), name: 'eac discover' };
  const forms: Record<'bearer' | 'raw', boolean> = { bearer: false, raw: false };
  for (const [form, value] of [
    ['bearer', `Bearer ${key}`],
    ['raw', key],
  ] as const) {
    const res = await t.http.post(CLONE, cloneBody, { headers: { authorization: value } });
    forms[form] = res.status !== 401;
  }
  const header =
    forms.bearer && forms.raw ? 'both' : forms.bearer ? 'bearer' : forms.raw ? 'raw' : undefined;
  if (header === undefined)
    w.cannot(
      'shapes.authorizationHeader',
      'the clone route refused the key both bare and after Bearer',
    );
  else {
    w.shapes['authorizationHeader'] = header;
    w.saw(
      `authorization header: an API key is taken ${header === 'both' ? 'bare and after Bearer' : header === 'bearer' ? 'after Bearer' : 'bare'}`,
    );
  }
}
