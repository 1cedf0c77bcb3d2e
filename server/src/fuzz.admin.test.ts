// Schema-driven fuzzing of the /api/admin routes of the real app (test/support/server/suites/fuzz.ts;
// see fuzz.test.ts). Replay with FUZZ_SEED=<seed>.
import { describeFuzz } from '../../test/support/server/suites/fuzz.ts';

describeFuzz('admin');
