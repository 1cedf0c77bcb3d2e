// Schema-driven fuzzing of the /api/admin routes of the real app (server/src/testing/suites/fuzz.ts;
// see fuzz.test.ts). Replay with FUZZ_SEED=<seed>.
import { describeFuzz } from './testing/suites/fuzz.ts';

describeFuzz('admin');
