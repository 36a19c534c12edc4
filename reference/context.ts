import type { Settings } from './settings.ts';
import type { IdSource } from './store/ids.ts';
import type { Store } from './store/store.ts';
import type { TokenService } from './tokens/jwt.ts';

/**
 * What every route module gets: the store, the token service, the id source and the settings
 * the reference was started with.
 */
export interface ReferenceContext {
  readonly store: Store;
  readonly tokens: TokenService;
  readonly ids: IdSource;
  readonly settings: Settings;
}
