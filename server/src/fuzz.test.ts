// Schema-driven fuzzing of every route of the real app (server/src/testing/suites/fuzz.ts), in three
// files that run in parallel, each with its own app and database: this one fuzzes the routes
// outside /api/admin and the wall, profile and notification routes (fuzz.admin.test.ts,
// fuzz.community.test.ts). Replay with FUZZ_SEED=<seed>.
import { describeFuzz } from './testing/suites/fuzz.ts';

describeFuzz('others');
