// ESLint flat config, run by `make lint` (the first step of `make test`). Errors, not style: the
// rules catch what breaks at run time (undefined names, unreachable code, duplicate keys …);
// formatting is left to .editorconfig. eslint, @eslint/js and globals are pinned in package.json.
import js from '@eslint/js';
import globals from 'globals';

export default [
  { ignores: ['build/**', 'node_modules/**', 'test-artifacts/**', 'gpu-check-out/**', '.venv/**'] },
  js.configs.recommended,
  {
    // The page: ES modules in the browser's main thread, and records-worker.js in a module worker.
    files: ['web/js/**/*.js'],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: 'module',
      globals: { ...globals.browser, ...globals.worker },
    },
  },
  {
    // Tests, benchmarks and scripts run in node; functions passed to page.evaluate run in the page.
    files: ['tests/**/*.mjs', 'bench/**/*.mjs', 'scripts/**/*.mjs', '*.mjs'],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: 'module',
      globals: { ...globals.node, ...globals.browser },
    },
  },
  {
    rules: {
      'no-unused-vars': ['warn', { args: 'none', caughtErrors: 'none' }],
    },
  },
];
