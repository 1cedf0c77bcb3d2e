// Stored XSS in Chromium (test/e2e/suites/xss.ts; see xss.test.ts): one's own profile (every tab
// and the edit dialog) and every admin screen with its dialogs.
import { describeXss } from './suites/xss.ts';

describeXss('own');
