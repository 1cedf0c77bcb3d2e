// axe-core on every page, both themes, at a desktop's size (test/e2e/suites/accessibility.ts; see
// accessibility.test.ts).
import { describeAccessibility } from './suites/accessibility.ts';

describeAccessibility('desktop', { probes: false });
