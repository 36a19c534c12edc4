import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { parseArgs } from 'node:util';
import { Router, serve } from './http.ts';
import { registerHub } from './hub.ts';
import { registerChatRoutes } from './routes/chat.ts';
import { HOOKS_PREFIX, registerHooks } from './routes/hooks.ts';
import { registerIdentityRoutes } from './routes/identity.ts';
import { registerTenantRoutes } from './routes/tenant.ts';
import { registerV1Routes } from './routes/v1.ts';
import { registerV2Routes } from './routes/v2.ts';
import { Store } from './store.ts';

/**
 * blind-1: an in-memory implementation of the Embedded Analytics Service API.
 * Usage: npx tsx candidates/blind-1/server.ts [--port N] [--hub-port N]
 */

const HOST = '127.0.0.1';

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, HOST, () => resolve((server.address() as AddressInfo).port));
  });
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '0' },
      'hub-port': { type: 'string', default: '0' },
    },
  });
  const store = new Store();

  const api = new Router();
  registerIdentityRoutes(api, store);
  registerTenantRoutes(api, store);
  registerV1Routes(api, store);
  registerV2Routes(api, store);
  registerChatRoutes(api, store);
  registerHooks(api, store);

  const hub = new Router();
  registerHub(hub, store);

  const apiServer = serve(api);
  const hubServer = serve(hub);
  const port = await listen(apiServer, Number(values.port));
  const hubPort = await listen(hubServer, Number(values['hub-port']));
  process.stdout.write(
    `${JSON.stringify({
      url: `http://${HOST}:${port}`,
      hubUrl: `http://${HOST}:${hubPort}`,
      hooksUrl: `http://${HOST}:${port}${HOOKS_PREFIX}`,
    })}\n`,
  );

  const stop = () => {
    apiServer.closeAllConnections();
    hubServer.closeAllConnections();
    apiServer.close();
    hubServer.close();
    process.exit(0);
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
