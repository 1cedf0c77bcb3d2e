// The lint rule that keeps a server domain's SQL private (scripts/eslint/domainBoundaries.js).
import path from 'node:path';
import { RuleTester } from 'eslint';
import { describe, it } from 'vitest';
import { domainBoundaries } from './domainBoundaries.js';

RuleTester.describe = describe;
RuleTester.it = it;

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const file = (relative: string) => path.join(ROOT, relative);
const tester = new RuleTester({ languageOptions: { ecmaVersion: 2022, sourceType: 'module' } });
const code = (specifier: string) => `import * as repo from '${specifier}';`;

tester.run('tribuna/domain-boundaries', domainBoundaries, {
  valid: [
    // Its own repository, from the domain's root and from a sub-folder.
    { code: code('./repository.ts'), filename: file('server/src/wall/service.ts') },
    { code: code('../repository.ts'), filename: file('server/src/polls/live/store.ts') },
    // Another sub-folder of the same domain.
    { code: code('../accounts/repository.ts'), filename: file('server/src/identity/oidc/service.ts') },
    // Another domain through its service, a presenter, a package.
    { code: code('../media/service.ts'), filename: file('server/src/wall/service.ts') },
    { code: code('../../polls/service.ts'), filename: file('server/src/admin/polls/service.ts') },
    { code: code('@tribuna/drizzle/schema/index'), filename: file('server/src/wall/service.ts') },
    // Outside server/src and worker/src (tests' helpers set rows up directly).
    { code: code('../../server/src/wall/repository.ts'), filename: file('test/support/factories.ts') },
  ],
  invalid: [
    { code: code('../wall/repository.ts'), filename: file('server/src/notifications/service.ts'), errors: [{ messageId: 'foreignRepository' }] },
    { code: code('../../votes/repository.ts'), filename: file('server/src/admin/abuse/service.ts'), errors: [{ messageId: 'foreignRepository' }] },
    { code: code('../../wall/repository.ts'), filename: file('server/src/identity/profiles/tabsRepository.ts'), errors: [{ messageId: 'foreignRepository' }] },
    { code: code('./media/repository.ts'), filename: file('server/src/app.ts'), errors: [{ messageId: 'foreignRepository' }] },
    {
      code: "export { insertMedia } from '../media/repository.ts';",
      filename: file('server/src/wall/service.ts'),
      errors: [{ messageId: 'foreignRepository' }],
    },
    { code: code('../points/repository.ts'), filename: file('worker/src/reports/jobs.ts'), errors: [{ messageId: 'foreignRepository' }] },
  ],
});
