// Who may call what (test/support/server/suites/authorization.ts; see authorization.test.ts): every
// /api/admin route as every kind of caller.
import { describeAccess, isAdminRoute } from '../../test/support/server/suites/authorization.ts';

describeAccess('normal', { routes: isAdminRoute });
