import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import {
  createServer as createHttpServer,
  request as httpRequest,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatcherFor, installNetwork, networkSettings } from '../suites/harness/network.ts';
import { parseCommand } from './args.ts';
import { checkReachable } from './target.ts';

let dir = '';
const servers: Server[] = [];

async function listen(server: Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A certificate authority and a server certificate it signed for 127.0.0.1, made now. */
function makeCertificates(): void {
  const openssl = (...args: string[]) =>
    execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
  const key = ['-newkey', 'rsa:2048', '-nodes'];
  openssl(
    'req',
    '-x509',
    ...key,
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
    '-days',
    '1',
    '-subj',
    '/CN=eac test authority',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign',
  );
  openssl('req', ...key, '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=127.0.0.1');
  openssl(
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-days',
    '1',
    '-extfile',
    'san.cnf',
    '-out',
    'server.pem',
  );
}

let tlsTarget = '';
let plainTarget = '';
let proxy = '';
const proxied: string[] = [];

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'eac-network-'));
  await writeFile(path.join(dir, 'san.cnf'), 'subjectAltName=IP:127.0.0.1\n');
  makeCertificates();
  const [key, cert] = await Promise.all([
    readFile(path.join(dir, 'server.key')),
    readFile(path.join(dir, 'server.pem')),
  ]);
  const answer = (_req: unknown, res: ServerResponse) => {
    res.setHeader('content-type', 'application/json');
    res.end('{"status":"success","data":{}}');
  };
  tlsTarget = `https://${await listen(createHttpsServer({ key, cert }, answer))}`;
  plainTarget = `http://${await listen(createHttpServer(answer))}`;
  // A forward proxy that counts what it carries: CONNECT tunnels and absolute-form requests.
  const forward = createHttpServer((req, res) => {
    proxied.push(`${req.method ?? ''} ${req.url ?? ''}`);
    const upstream = httpRequest(
      req.url ?? '',
      { method: req.method, headers: req.headers },
      (reply) => {
        res.writeHead(reply.statusCode ?? 502, reply.headers);
        reply.pipe(res);
      },
    );
    req.pipe(upstream);
  });
  forward.on('connect', (req, socket, head) => {
    proxied.push(`CONNECT ${req.url ?? ''}`);
    const [host, port] = (req.url ?? '').split(':');
    const upstream = connect(Number(port), host ?? '', () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  proxy = `http://${await listen(forward)}`;
}, 60_000);

afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections?.();
    server.close();
  }
  if (dir !== '') await rm(dir, { recursive: true, force: true });
});

describe('--ca FILE: a target on TLS with a private authority', () => {
  it('is refused without the authority and reached with it', async () => {
    await expect(request(tlsTarget)).rejects.toThrow(/certificate/i);
    const dispatcher = dispatcherFor(networkSettings({ EAC_CA: path.join(dir, 'ca.pem') }));
    const response = await request(tlsTarget, { ...(dispatcher ? { dispatcher } : {}) });
    expect(response.statusCode).toBe(200);
    expect(await response.body.json()).toEqual({ status: 'success', data: {} });
  });

  it('refuses a file that holds no certificate, and parses --ca', () => {
    expect(() => networkSettings({ EAC_CA: path.join(dir, 'san.cnf') })).toThrow(/no PEM/);
    const command = parseCommand(['run', '--target', tlsTarget, '--ca', 'ca.pem']);
    expect(command.kind === 'run' && command.options.target.ca).toBe('ca.pem');
  });

  it('the runner reaches the target once the network is installed from the environment', async () => {
    await expect(checkReachable(tlsTarget)).rejects.toThrow(/cannot reach the target/);
    try {
      installNetwork({ EAC_CA: path.join(dir, 'ca.pem') });
      await expect(checkReachable(tlsTarget)).resolves.toBeUndefined();
    } finally {
      installNetwork({});
    }
  });
});

describe('proxy variables', () => {
  it('send plain and TLS requests through HTTP_PROXY/HTTPS_PROXY, and not what NO_PROXY names', async () => {
    const ca = path.join(dir, 'ca.pem');
    const through = dispatcherFor(networkSettings({ HTTP_PROXY: proxy, EAC_CA: ca }));
    expect(through).toBeDefined();
    const before = proxied.length;
    const plain = await request(`${plainTarget}/x`, {
      ...(through ? { dispatcher: through } : {}),
    });
    expect(plain.statusCode).toBe(200);
    await plain.body.dump();
    const secure = await request(`${tlsTarget}/y`, { ...(through ? { dispatcher: through } : {}) });
    expect(secure.statusCode).toBe(200);
    await secure.body.dump();
    const seen = proxied.slice(before);
    expect(seen).toHaveLength(2);
    expect(seen.join(' ')).toContain(plainTarget.replace('http://', ''));
    expect(seen.join(' ')).toContain(tlsTarget.replace('https://', ''));

    const bypass = dispatcherFor(
      networkSettings({ https_proxy: proxy, http_proxy: proxy, no_proxy: '127.0.0.1' }),
    );
    const direct = await request(`${plainTarget}/z`, { ...(bypass ? { dispatcher: bypass } : {}) });
    expect(direct.statusCode).toBe(200);
    await direct.body.dump();
    expect(proxied).toHaveLength(before + 2);
  });

  it('changes nothing when no variable is set', () => {
    expect(dispatcherFor(networkSettings({ NO_PROXY: 'x' }))).toBeUndefined();
  });
});
