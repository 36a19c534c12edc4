/**
 * What names the target of a run, as a person gives it: the target flags of `eac run` and
 * `eac doctor` (camelCase keys, commander's names for the flags), an eac.config.yaml's target
 * lines, or the library's options. `eac run`, `eac doctor` and `runConformance` hold it whole
 * and hand it whole to resolveTarget (target.ts), which turns it into the `Target` the suites
 * test (suites/harness/target.ts). A new target option is a field here and a flag in args.ts.
 */
import { z } from 'zod';
import { imageOptions, type ImageOptions } from './container.ts';
import { parseVary, type LatitudeVary } from '../latitude/choice.ts';

/** A value a flag was given: blank is a usage error, as a flag without its value is. */
const given = (flag: string) =>
  z.string().refine((value) => value.trim() !== '', `--${flag} needs a value`);

/** The words: each key is a flag (`imagePorts` is `--image-ports`), each value what it was given. */
export const TargetWords = z.object({
  /** Base URL of the implementation under test; the embedded reference when absent. */
  target: given('target').optional(),
  /** Origin of its embedded pages (§4.17); the hub tests end not-run without it. */
  hub: given('hub').optional(),
  /** Base URL of the target's host hooks. */
  hooks: given('hooks').optional(),
  /** Credentials file for a target without an accounts hook. */
  credentials: given('credentials').optional(),
  /** Profile file (JSON or YAML); the reference's own, or the document-only one, when absent. */
  profile: given('profile').optional(),
  /** PEM file of an extra certificate authority for a target on TLS. */
  ca: given('ca').optional(),
  /** Hold probes to the reference's decisions (automatic against the reference). */
  checkDecisions: z.boolean().optional(),
  /** A container image to start as the target, and how (`--image-*`). */
  image: given('image').optional(),
  imagePorts: z.string().optional(),
  imageHooks: z.string().optional(),
  imageWait: z.string().optional(),
  imageEnv: z.array(z.string()).optional(),
  /** The embedded reference behind the latitude proxy: `all`, `random:SEED` or ids. */
  latitude: given('latitude').optional(),
});
export type TargetWords = z.input<typeof TargetWords>;

/** The words of `--image` and its companions, read together into one ImageOptions. */
type ImageWords = 'image' | 'imagePorts' | 'imageHooks' | 'imageWait' | 'imageEnv';

/**
 * The target of a run, read: every word as given, but `--image*` parsed into `image`,
 * `--latitude` into the choice it names, and `checkDecisions` true or false.
 */
export type TargetSpec = Omit<
  z.output<typeof TargetWords>,
  ImageWords | 'latitude' | 'checkDecisions'
> & {
  readonly checkDecisions: boolean;
  readonly image?: ImageOptions;
  readonly latitude?: LatitudeVary;
};

/** The words read into a TargetSpec; each rule a usage error of its own, in the CLI's words. */
export const TargetSpec = TargetWords.transform((words, ctx): TargetSpec => {
  const refuse = (message: string) => {
    ctx.addIssue({ code: 'custom', message });
    return z.NEVER;
  };
  const {
    image: name,
    imagePorts,
    imageHooks,
    imageWait,
    imageEnv,
    latitude: vary,
    checkDecisions,
    ...rest
  } = words;
  let latitude: LatitudeVary | undefined;
  try {
    latitude = vary !== undefined ? parseVary(vary) : undefined;
  } catch (error) {
    return refuse((error as Error).message);
  }
  const imageGiven = stripUndefined({
    ports: imagePorts,
    hooks: imageHooks,
    wait: imageWait,
    env: imageEnv,
  });
  if (name === undefined && Object.keys(imageGiven).length > 0)
    return refuse('--image-ports, --image-hooks, --image-wait and --image-env go with --image');
  const image = name !== undefined ? imageOptions(name, imageGiven) : undefined;
  if (typeof image === 'string') return refuse(image);
  const { target, hub, hooks } = rest;
  if (image !== undefined && (target !== undefined || hub !== undefined || hooks !== undefined))
    return refuse('--image starts the target; leave out --target, --hub and --hooks');
  if (target === undefined && (hub !== undefined || hooks !== undefined))
    return refuse('--hub and --hooks describe a --target; give --target too');
  if (latitude !== undefined && (target !== undefined || image !== undefined))
    return refuse(
      '--latitude puts the proxy in front of the embedded reference; for another target start `eac latitude --target URL` and run against it',
    );
  return stripUndefined({ ...rest, checkDecisions: checkDecisions === true, image, latitude });
});

/** The target words read, or the first thing wrong with them (a usage error's text). */
export function readTargetWords(words: TargetWords): TargetSpec | string {
  const parsed = TargetSpec.safeParse(words);
  return parsed.success ? parsed.data : (parsed.error.issues[0]?.message ?? 'invalid target');
}

function stripUndefined<T extends object>(value: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as never;
}
