// ESLint flat config. (ESLint itself requires this file's default export.)
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import tseslint from 'typescript-eslint';

const TS_FILES = ['src/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts'];

// Node globals for the build and test scripts, written out to avoid a dependency on `globals`.
const NODE_GLOBALS = Object.fromEntries(
  [
    'process', 'console', 'Buffer', 'URL', 'URLSearchParams', 'AbortController', 'AbortSignal',
    'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'setImmediate', 'clearImmediate',
    'queueMicrotask', 'structuredClone', 'fetch', 'TextEncoder', 'TextDecoder',
  ].map((name) => [name, 'readonly']),
);

const UNUSED_VARS = {
  args: 'after-used',
  argsIgnorePattern: '^_',
  varsIgnorePattern: '^_',
  caughtErrorsIgnorePattern: '^_',
  destructuredArrayIgnorePattern: '^_',
};

export default defineConfig([
  globalIgnores(['dist/', 'out/', 'media/dist/', 'node_modules/', '.test-cache/', '.vscode-test/', '.bench/']),
  {
    files: TS_FILES,
    extends: [js.configs.recommended, tseslint.configs.recommended],
    rules: {
      // Named exports keep names identical at every import site and greppable.
      'no-restricted-syntax': [
        'error',
        { selector: 'ExportDefaultDeclaration', message: 'Use named exports, not export default.' },
        { selector: "ExportSpecifier[exported.name='default']", message: 'Use named exports, not `as default`.' },
        { selector: "ExportAllDeclaration[exported.name='default']", message: 'Use named exports, not `as default`.' },
      ],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-unused-vars': 'off',
      '@typescript-eslint/no-unused-vars': ['error', UNUSED_VARS],
      eqeqeq: 'error',
    },
  },
  {
    files: ['**/*.mjs', '**/*.cjs', '**/*.js'],
    extends: [js.configs.recommended],
    languageOptions: { globals: NODE_GLOBALS },
    rules: {
      'no-unused-vars': ['error', UNUSED_VARS],
      eqeqeq: 'error',
    },
  },
]);
