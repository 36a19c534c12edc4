/**
 * How the kit reaches a target over the network: the standard proxy variables (HTTP_PROXY,
 * HTTPS_PROXY, NO_PROXY, and their lowercase forms) and an extra certificate authority for
 * targets on TLS with a private one (`eac run --ca FILE`, passed on as `EAC_CA`). Installed
 * as undici's global dispatcher in the runner and in every test worker (suites/harness/http.ts
 * imports this file), so the runner's checks and the tests' requests go the same way.
 */
import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import { Agent, EnvHttpProxyAgent, setGlobalDispatcher, type Dispatcher } from 'undici';

export interface NetworkSettings {
  readonly httpProxy?: string;
  readonly httpsProxy?: string;
  readonly noProxy?: string;
  /** PEM text of the extra certificate authority, when one was given. */
  readonly ca?: string;
}

function variable(env: NodeJS.ProcessEnv, name: string): string | undefined {
  // The lowercase form wins, as in curl and undici.
  const value = env[name.toLowerCase()] ?? env[name];
  return value !== undefined && value.trim() !== '' ? value.trim() : undefined;
}

/** Reads the settings from an environment; throws when EAC_CA names no readable PEM file. */
export function networkSettings(env: NodeJS.ProcessEnv): NetworkSettings {
  const httpProxy = variable(env, 'HTTP_PROXY');
  const httpsProxy = variable(env, 'HTTPS_PROXY');
  const noProxy = variable(env, 'NO_PROXY');
  const settings = {
    ...(httpProxy !== undefined ? { httpProxy } : {}),
    ...(httpsProxy !== undefined ? { httpsProxy } : {}),
    ...(noProxy !== undefined ? { noProxy } : {}),
  };
  const file = env['EAC_CA'];
  if (file === undefined || file.trim() === '') return settings;
  const ca = readFileSync(file, 'utf8');
  if (!ca.includes('-----BEGIN CERTIFICATE-----'))
    throw new Error(`${file} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`);
  return { ...settings, ca };
}

/**
 * The dispatcher the settings call for, or `undefined` when undici's default does. The extra
 * authority is trusted beside the system's, for the target directly and through a proxy.
 */
export function dispatcherFor(settings: NetworkSettings): Dispatcher | undefined {
  const tls = settings.ca !== undefined ? { ca: [...rootCertificates, settings.ca] } : undefined;
  const { ca: _ca, ...proxies } = settings;
  void _ca;
  if (proxies.httpProxy !== undefined || proxies.httpsProxy !== undefined)
    return new EnvHttpProxyAgent({
      // Given explicitly so that an unset variable is not read again from process.env.
      httpProxy: proxies.httpProxy ?? '',
      httpsProxy: proxies.httpsProxy ?? proxies.httpProxy ?? '',
      noProxy: proxies.noProxy ?? '',
      ...(tls !== undefined ? { connect: tls, requestTls: tls, proxyTls: tls } : {}),
    });
  return tls !== undefined ? new Agent({ connect: tls }) : undefined;
}

let installed: string | undefined;

/** Installs the dispatcher the environment calls for, once per distinct environment. */
export function installNetwork(env: NodeJS.ProcessEnv = process.env): void {
  const settings = networkSettings(env);
  const key = JSON.stringify(settings);
  if (installed === key) return;
  const dispatcher = dispatcherFor(settings);
  if (dispatcher !== undefined) setGlobalDispatcher(dispatcher);
  else if (installed !== undefined) setGlobalDispatcher(new Agent());
  installed = key;
}
