// §4.17 with the names of every resource holding markup: the live world's pages (the
// migrated world's are in names-after-finalize.test.ts; the tests live in names-everywhere.ts).
import { namesEverywhere } from './names-everywhere.ts';

namesEverywhere('live');
