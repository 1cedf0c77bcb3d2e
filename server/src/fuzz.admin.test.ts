// Schema-driven fuzzing of the /api/admin routes of the real app (server/src/testing/fuzz/suite.ts;
// see fuzz.test.ts). Replay with FUZZ_SEED=<seed>.
import { describeFuzz } from './testing/fuzz/suite.ts';

describeFuzz('admin');
