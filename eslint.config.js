// ESLint for the monorepo (flat config). Recommended JavaScript and TypeScript rules without type
// information (fast), React hooks rules, and the architecture's boundaries: on the web, features
// import only lib/, components/ and themselves; on the server, a domain never imports another
// domain's repository (scripts/eslint/domainBoundaries.js). `npm run lint`, part of `npm test`.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import boundaries from 'eslint-plugin-boundaries';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import tribuna from './scripts/eslint/domainBoundaries.js';

/** Test code outside the web app. */
const TEST_FILES = ['**/*.test.ts', 'test/**', 'bench/**'];

/** Test code of the web app: tests, the fixtures they build rows with, and the shared test helpers. */
const WEB_TEST_FILES = ['web/src/**/*.test.{ts,tsx}', 'web/src/**/*[Ff]ixtures.ts', 'web/src/test/**'];

export default defineConfig(
  { ignores: ['**/node_modules/', '**/dist/', '**/build/', '**/coverage/', 'web/public/', 'web/dev-dist/', 'data/'] },

  // --- Every package -----------------------------------------------------------------------------
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    rules: {
      // A leading underscore marks what is unused on purpose (a parameter kept for its position).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },

  // --- web/ -------------------------------------------------------------------------------------------
  {
    files: ['web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    extends: [reactHooks.configs.flat.recommended],
  },
  {
    files: ['web/*.{js,ts}', 'web/scripts/**'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    // Boundaries (ARCHITECTURE.md, "feature folders"): a feature imports only lib/, components/ and
    // its own folder (plus packages and @tribuna/contracts). What several features use lives in
    // lib/ (state, hooks, helpers) or components/ (shared UI); app/ (router and shell) composes the
    // features, so no feature may import app/ (a cycle). lib/ imports only lib/; components/ lib/
    // and components/.
    files: ['web/src/**/*.{ts,tsx}'],
    plugins: { boundaries },
    settings: {
      'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js', '.jsx'] } },
      'boundaries/elements': [
        { type: 'app', pattern: 'web/src/app', partialMatch: false },
        { type: 'feature', pattern: 'web/src/features/*', capture: ['feature'], partialMatch: false },
        { type: 'lib', pattern: 'web/src/lib', partialMatch: false },
        { type: 'components', pattern: 'web/src/components', partialMatch: false },
        { type: 'test-support', pattern: 'web/src/test', partialMatch: false },
      ],
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'disallow',
          policies: [
            { from: { element: { type: 'app' } }, allow: { to: { element: { types: { anyOf: ['app', 'feature', 'lib', 'components'] } } } } },
            { from: { element: { type: 'feature' } }, allow: { to: { element: { types: { anyOf: ['lib', 'components'] } } } } },
            {
              from: { element: { type: 'feature' } },
              allow: { to: { element: { type: 'feature', captured: { feature: '{{ from.element.captured.feature }}' } } } },
            },
            { from: { element: { type: 'components' } }, allow: { to: { element: { types: { anyOf: ['components', 'lib'] } } } } },
            { from: { element: { type: 'lib' } }, allow: { to: { element: { type: 'lib' } } } },
          ],
        },
      ],
    },
  },
  {
    // Test code may also use the test helpers, and drive the real shell (app/: routes, guards,
    // navigation): a test is imported by nothing, so that makes no cycle. Still no reaching into
    // another feature.
    files: WEB_TEST_FILES,
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'disallow',
          policies: [
            { allow: { to: { element: { type: 'test-support' } } } },
            {
              from: { element: { types: { anyOf: ['app', 'test-support'] } } },
              allow: { to: { element: { types: { anyOf: ['app', 'feature', 'lib', 'components'] } } } },
            },
            { from: { element: { type: 'feature' } }, allow: { to: { element: { types: { anyOf: ['app', 'lib', 'components'] } } } } },
            {
              from: { element: { type: 'feature' } },
              allow: { to: { element: { type: 'feature', captured: { feature: '{{ from.element.captured.feature }}' } } } },
            },
            { from: { element: { type: 'components' } }, allow: { to: { element: { types: { anyOf: ['components', 'lib'] } } } } },
            { from: { element: { type: 'lib' } }, allow: { to: { element: { type: 'lib' } } } },
          ],
        },
      ],
    },
  },

  // --- Node packages: server/, worker/, contracts/, drizzle/, scripts/, test/, bench/ ---------------------
  {
    files: ['**/*.{js,mjs,ts}'],
    ignores: ['web/**'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    // Boundaries (ARCHITECTURE.md, "one folder per domain", "repositories the only SQL"): a domain
    // reaches another through its service, never its repository. Tests may set up rows directly.
    files: ['server/src/**/*.ts', 'worker/src/**/*.ts'],
    ignores: TEST_FILES,
    plugins: { tribuna },
    rules: { 'tribuna/domain-boundaries': 'error' },
  },
  {
    // Tests and benchmarks read loosely typed answers (`res.json()`): `any` is allowed there.
    files: TEST_FILES,
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },

  // Last: Prettier owns the layout; rules that would fight it (no-unexpected-multiline…) are off.
  prettier,
);
