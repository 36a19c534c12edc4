// §4.17 with the names of every resource holding markup, on the pages after the v1 -> v2
// finalize (the live world's are in names-everywhere.test.ts; the tests in names-everywhere.ts).
import { namesEverywhere } from './names-everywhere.ts';

namesEverywhere('migrated');
