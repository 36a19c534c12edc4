/**
 * `eac run --image NAME[:TAG]`: the candidate shipped as a container image, started through
 * testcontainers for the run and stopped after it. The image must already be on the engine
 * or be pullable; the wait is an HTTP one (a scratch image has no shell for a port check).
 */
import type { StartedTestContainer } from 'testcontainers';

export interface ImageOptions {
  /** `NAME[:TAG]` as given. */
  readonly image: string;
  /** Container port of the API (default 8080). */
  readonly apiPort: number;
  /** Container port of the hub, when it has its own (default 8081); the API's otherwise. */
  readonly hubPort?: number;
  /** Path of the hooks on the API port (default `/__eac`); none when undefined. */
  readonly hooksPath?: string;
  /** Path on the API port that answers 200 once the candidate serves (default: capabilities). */
  readonly waitPath: string;
  readonly env: Readonly<Record<string, string>>;
  /** How long to wait for the wait path (default 60 s). */
  readonly startupTimeoutMs: number;
}

export interface StartedImage {
  readonly baseUrl: string;
  readonly hubUrl: string;
  readonly hooksUrl?: string;
  /** The engine's id of the image that ran (`sha256:…`). */
  readonly imageId: string;
  /** Last lines the container wrote, for a message when the run cannot use it. */
  logs(): Promise<string>;
  stop(): Promise<void>;
}

export const IMAGE_DEFAULTS = {
  apiPort: 8080,
  hubPort: 8081,
  hooksPath: '/__eac',
  startupTimeoutMs: 60_000,
} as const;

/** The image options of `--image` and its `--image-*` companions, defaults filled in. */
export function imageOptions(
  image: string,
  given: {
    readonly ports?: string;
    readonly hooks?: string;
    readonly wait?: string;
    readonly env?: readonly string[];
  },
): ImageOptions | string {
  if (!/^[\w][\w.\-/:@]*$/.test(image)) return `--image takes NAME[:TAG], got "${image}"`;
  const ports = (given.ports ?? `${IMAGE_DEFAULTS.apiPort},${IMAGE_DEFAULTS.hubPort}`)
    .split(',')
    .map((p) => p.trim());
  const numbers = ports.map(Number);
  if (
    ports.length < 1 ||
    ports.length > 2 ||
    numbers.some((n) => !Number.isInteger(n) || n < 1 || n > 65535)
  )
    return `--image-ports takes API[,HUB] container ports, e.g. 8080,8081; got "${given.ports ?? ''}"`;
  const hooks = given.hooks ?? IMAGE_DEFAULTS.hooksPath;
  const hooksPath = hooks === 'none' ? undefined : `/${hooks.replace(/^\/+|\/+$/g, '')}`;
  if (hooksPath !== undefined && !/^\/[\w\-./]*$/.test(hooksPath))
    return `--image-hooks takes a path such as /__eac, or none; got "${hooks}"`;
  const env: Record<string, string> = {};
  for (const pair of given.env ?? []) {
    const at = pair.indexOf('=');
    if (at < 1) return `--image-env takes NAME=VALUE, got "${pair}"`;
    env[pair.slice(0, at)] = pair.slice(at + 1);
  }
  const waitPath = given.wait ?? (hooksPath !== undefined ? `${hooksPath}/capabilities` : '/');
  if (!waitPath.startsWith('/')) return `--image-wait takes a path, got "${waitPath}"`;
  const [apiPort, hubPort] = numbers as [number, number | undefined];
  return {
    image,
    apiPort,
    ...(hubPort !== undefined ? { hubPort } : {}),
    ...(hooksPath !== undefined ? { hooksPath } : {}),
    waitPath,
    env,
    startupTimeoutMs: IMAGE_DEFAULTS.startupTimeoutMs,
  };
}

/** The `--image*` arguments that start the same container again, for replay lines. */
export function imageArgs(options: ImageOptions): string[] {
  const args = ['--image', options.image];
  const ports = [options.apiPort, ...(options.hubPort !== undefined ? [options.hubPort] : [])];
  if (ports.join(',') !== `${IMAGE_DEFAULTS.apiPort},${IMAGE_DEFAULTS.hubPort}`)
    args.push('--image-ports', ports.join(','));
  if (options.hooksPath !== IMAGE_DEFAULTS.hooksPath)
    args.push('--image-hooks', options.hooksPath ?? 'none');
  const defaultWait = options.hooksPath !== undefined ? `${options.hooksPath}/capabilities` : '/';
  if (options.waitPath !== defaultWait) args.push('--image-wait', options.waitPath);
  for (const [name, value] of Object.entries(options.env))
    args.push('--image-env', `${name}=${value}`);
  return args;
}

/** Starts the image, waits for its wait path to answer 200, and describes where it serves. */
export async function startImage(options: ImageOptions): Promise<StartedImage> {
  // Ryuk (the reaper) is an image of its own that an offline engine cannot pull; the run
  // stops its container itself. Left as the caller set it.
  process.env['TESTCONTAINERS_RYUK_DISABLED'] ??= 'true';
  const { GenericContainer, Wait, getContainerRuntimeClient } = await import('testcontainers');
  const ports = [options.apiPort, ...(options.hubPort !== undefined ? [options.hubPort] : [])];
  const container: StartedTestContainer = await new GenericContainer(options.image)
    .withExposedPorts(...ports)
    .withEnvironment({ ...options.env })
    .withWaitStrategy(Wait.forHttp(options.waitPath, options.apiPort).forStatusCode(200))
    .withStartupTimeout(options.startupTimeoutMs)
    .start();
  try {
    const client = await getContainerRuntimeClient();
    const inspected = await client.container.inspect(client.container.getById(container.getId()));
    const host = container.getHost();
    const origin = (port: number) => `http://${host}:${container.getMappedPort(port)}`;
    const baseUrl = origin(options.apiPort);
    return {
      baseUrl,
      hubUrl: options.hubPort !== undefined ? origin(options.hubPort) : baseUrl,
      ...(options.hooksPath !== undefined ? { hooksUrl: `${baseUrl}${options.hooksPath}` } : {}),
      imageId: inspected.Image,
      logs: async () => {
        const stream = await container.logs({ tail: 40 });
        const chunks: string[] = [];
        await new Promise<void>((resolve) => {
          stream.on('data', (chunk: Buffer | string) => chunks.push(chunk.toString()));
          stream.on('end', () => resolve());
          setTimeout(resolve, 1_000).unref();
        });
        return chunks.join('');
      },
      stop: async () => {
        await container.stop({ timeout: 5_000 });
      },
    };
  } catch (error) {
    await container.stop({ timeout: 5_000 }).catch(() => undefined);
    throw error;
  }
}
