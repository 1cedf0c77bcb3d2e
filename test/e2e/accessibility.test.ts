// axe-core on every page, both themes, at a phone's size (test/e2e/suites/accessibility.ts), with
// the checks that the scan can fail and that reduced motion stops every animation.
// accessibility.desktop.test.ts does the desktop size, in parallel.
import { describeAccessibility } from './suites/accessibility.ts';

describeAccessibility('phone', { probes: true });
