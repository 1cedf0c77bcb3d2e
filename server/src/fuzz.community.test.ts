// Schema-driven fuzzing of the wall, profile and notification routes of the real app
// (server/src/testing/suites/fuzz.ts; see fuzz.test.ts). Replay with FUZZ_SEED=<seed>.
import { describeFuzz } from './testing/suites/fuzz.ts';

describeFuzz('community');
