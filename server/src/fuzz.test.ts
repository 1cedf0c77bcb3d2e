// Schema-driven fuzzing of every route of the real app (test/support/server/suites/fuzz.ts), in three
// files that run in parallel, each with its own app and database: this one fuzzes the routes
// outside /api/admin and the wall, profile and notification routes (fuzz.admin.test.ts,
// fuzz.community.test.ts). Replay with FUZZ_SEED=<seed>.
import { describeFuzz } from '../../test/support/server/suites/fuzz.ts';

describeFuzz('others');
