import { randomInt } from 'node:crypto';
import type { FreedomId } from '../spec/latitude.ts';
import { buildApp } from './http/app.ts';
import type { ReferenceContext } from './context.ts';
import { HOOKS_PREFIX, hookRoutes } from './hooks/routes.ts';
import { hubApp } from './hub/server.ts';
import { dashboardRulesOf, settingsFor } from './settings.ts';
import { seededIds } from './store/ids.ts';
import type { MachineRowCount } from './store/machine-rows.ts';
import { Store } from './store/store.ts';

export type { MachineRowCount } from './store/machine-rows.ts';
import { TokenService } from './tokens/jwt.ts';

export const REFERENCE_VERSION = '0.1.0';

export interface StartOptions {
  /** 0 (default) picks an ephemeral port. */
  readonly port?: number;
  /** Port of the hub (§4.17 pages, on an origin of its own); 0 (default) picks an ephemeral one. */
  readonly hubPort?: number;
  readonly host?: string;
  /** Serve the host hooks under `/__eac`. */
  readonly hooks?: boolean;
  /** Seed for ids and keys, so runs can be replayed. */
  readonly seed?: number;
  readonly logger?: boolean;
  /**
   * Entries of the latitude catalogue (spec/latitude.ts): the `behaviour` ones change how the
   * reference behaves where the document leaves a choice; `form` ones are passed over; an id the
   * catalogue does not hold is refused.
   */
  readonly latitude?: readonly FreedomId[];
  /**
   * The implementation name `GET {hooks}/capabilities` gives instead of the reference's own, so a
   * run judges this server as it judges any other (`eac serve --announce`).
   */
  readonly announce?: string;
}

export interface RunningReference {
  readonly url: string;
  /** The hub's origin: the same host as `url` on a port of its own. */
  readonly hubUrl: string;
  readonly hooksUrl?: string;
  /** The rows of the machines' tables its commands took so far, and the guards that refused. */
  machineRows(): MachineRowCount[];
  close(): Promise<void>;
}

/** Starts the reference simulator: the public entry point of reference/. */
export async function start(options: StartOptions = {}): Promise<RunningReference> {
  const settings = settingsFor(options.latitude);
  const seed = options.seed ?? randomInt(2 ** 31);
  const ids = seededIds(seed);
  const ctx: ReferenceContext = {
    store: new Store(
      ids,
      Date.now,
      { recursion: settings.recursiveSql, binding: settings.propertyBinding },
      dashboardRulesOf(settings),
    ),
    tokens: await TokenService.create(`eac-${ids.hex(4)}`, {
      signing: settings.signing,
      seed,
      layout: settings.claims,
      permissionsForm: settings.permissionsForm,
      end: settings.tokenEnd,
    }),
    ids,
    settings,
  };
  const app = buildApp(ctx, { logger: options.logger ?? false });
  if (options.hooks === true) hookRoutes(app, ctx, REFERENCE_VERSION, options.announce);
  const host = options.host ?? '127.0.0.1';
  await app.listen({ port: options.port ?? 0, host });
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : options.port;
  const origin = (p: unknown) => `http://${host.includes(':') ? `[${host}]` : host}:${String(p)}`;
  const url = origin(port);
  // §4.17: the hub serves the embedded pages from its own origin, over the same store.
  const hub = hubApp(ctx, { logger: options.logger ?? false });
  try {
    await hub.listen({ port: options.hubPort ?? 0, host });
  } catch (error) {
    await app.close();
    throw error;
  }
  const hubAddress = hub.server.address();
  const hubPort =
    typeof hubAddress === 'object' && hubAddress !== null ? hubAddress.port : options.hubPort;
  return {
    url,
    hubUrl: origin(hubPort),
    ...(options.hooks === true ? { hooksUrl: `${url}${HOOKS_PREFIX}` } : {}),
    machineRows: () => ctx.store.machineRows.counts(),
    close: async () => {
      ctx.store.data.stop();
      await Promise.all([app.close(), hub.close()]);
    },
  };
}
