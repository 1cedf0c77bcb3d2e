// Schema-driven fuzzing of the wall, profile and notification routes of the real app
// (test/support/server/suites/fuzz.ts; see fuzz.test.ts). Replay with FUZZ_SEED=<seed>.
import { describeFuzz } from '../../test/support/server/suites/fuzz.ts';

describeFuzz('community');
