// Who may call what (server/src/testing/suites/authorization.ts; see authorization.test.ts): every
// /api/admin route as every kind of caller.
import { describeAccess, isAdminRoute } from './testing/suites/authorization.ts';

describeAccess('normal', { routes: isAdminRoute });
