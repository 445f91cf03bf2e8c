import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'data', 'test-results', 'playwright-report', 'db/migrations'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['dashboard/**/*.{ts,tsx}', 'widget/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    // core/ is imported by server, dashboard and widget: pure TypeScript, no I/O.
    files: ['core/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['node:*', '../server/*', '../db/*', '../dashboard/*', '../widget/*'] }],
    },
  },
  {
    // Domain modules know nothing of HTTP: they throw core's DomainError and the
    // HTTP layer (server/http, server/routes) maps it. Their tests may drive a real app.
    files: ['server/{accounts,admin,analysis,assistant,payments,businesses,settings,credits,mail,ops,quotes,jobs,replication,storage}/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'hono', message: 'Domain modules do not use HTTP; throw DomainError from core/errors.' }],
          patterns: [
            { group: ['hono/*', '../http/*', '../routes/*', '../../http/*', '../../routes/*'], message: 'Domain modules do not use HTTP; throw DomainError from core/errors.' },
          ],
        },
      ],
    },
  },
);
