import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';
import { SERVER_LAYERS, layerRestrictions } from './build/layers.mjs';

/** Domain modules know nothing of HTTP: they throw core's DomainError and the HTTP layer maps it. */
const NO_HTTP = 'Domain modules do not use HTTP; throw DomainError from core/errors.';
/** The layers that answer HTTP: from the top of SERVER_LAYERS down to http's own. */
const HTTP_LAYERS = SERVER_LAYERS.findIndex((layer) => layer.includes('http')) + 1;

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
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['node:*', '../server/*', '../db/*', '../dashboard/*', '../widget/*'] }],
    },
  },
  {
    // core's tests run in Node (they may time a pass with node:zlib), but still test core alone.
    files: ['core/**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['../server/*', '../db/*', '../dashboard/*', '../widget/*'] }],
    },
  },
  // Server folders depend one way (docs/architecture.md, Layers): each folder's code may not
  // import a folder of a layer above it (build/layers.mjs, the one ordered list), and the domain
  // folders below the HTTP layers may not use HTTP either. Their tests may drive a real app.
  ...SERVER_LAYERS.flatMap((layer, index) =>
    layer.map((folder) => ({
      files: [`server/${folder}/**/*.ts`],
      ignores: ['**/*.test.ts'],
      rules: {
        'no-restricted-imports': [
          'error',
          layerRestrictions(
            folder,
            index < HTTP_LAYERS
              ? undefined
              : { paths: [{ name: 'hono', message: NO_HTTP }], patterns: [{ group: ['hono/*'], message: NO_HTTP }] },
          ),
        ],
      },
    })),
  ),
);
