// Who may call what, in four files that run in parallel, each with its own app and database (the
// table and its checks: test/support/server/suites/authorization.ts). This one: every route outside
// /api/admin as every kind of caller, and that the tables list every route and topic family.
import { describeAccess, isAdminRoute } from '../../test/support/server/suites/authorization.ts';

describeAccess('normal', { routes: (key) => !isAdminRoute(key), completeness: true });
