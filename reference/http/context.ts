import type { IdSource } from '../store/ids.ts';
import type { World } from '../store/world.ts';
import type { TokenService } from '../tokens/jwt.ts';

/** What every route module gets: the world, the token service and the id source. */
export interface ReferenceContext {
  readonly world: World;
  readonly tokens: TokenService;
  readonly ids: IdSource;
}
