// Who may call what (test/support/server/suites/authorization.ts; see authorization.test.ts) with
// REQUIRE_ADMIN_MFA=1: every route as the callers it treats differently (admins), and that the
// tables list every route and topic family of the app in this mode too.
import { describeAccess } from '../../test/support/server/suites/authorization.ts';

describeAccess('adminMfa', { routes: () => true, completeness: true });
