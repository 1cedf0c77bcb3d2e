// Stored XSS in Chromium (test/e2e/suites/xss.ts): the probe that the checks can fail, the home
// page, the share previews, the wall, other users' profiles, the notifications, and the search and
// filter parameters. xss.own.test.ts renders one's own profile and the admin screens, in parallel.
import { describeXss } from './suites/xss.ts';

describeXss('fan');
