// Who may call what (test/support/server/suites/authorization.ts; see authorization.test.ts): owner-only
// routes called by other users on the owner's rows, and every live topic family, in both modes.
import { describeAccess } from '../../test/support/server/suites/authorization.ts';

describeAccess('normal', { others: true, topics: true });
describeAccess('adminMfa', { others: true, topics: true });
