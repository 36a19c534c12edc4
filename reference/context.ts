import type { Settings } from './settings.ts';
import type { IdSource } from './store/ids.ts';
import type { World } from './store/world.ts';
import type { TokenService } from './tokens/jwt.ts';

/**
 * What every route module gets: the world, the token service, the id source and the settings
 * the reference was started with.
 */
export interface ReferenceContext {
  readonly world: World;
  readonly tokens: TokenService;
  readonly ids: IdSource;
  readonly settings: Settings;
}
