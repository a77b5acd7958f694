import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: ['out/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', 'scratch/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      '@typescript-eslint/no-confusing-void-expression': 'off',
    },
  },
  {
    files: [
      'src-main/**/*.ts',
      'src-shared/**/*.ts',
      'e2e/**/*.ts',
      'bench/**/*.ts',
      'scripts/**/*.ts',
      '*.ts',
      'bin/*.js',
    ],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['**/*.test.ts', 'e2e/**/*.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  {
    // Text processing here works on code points on purpose ([...text]) and matches control characters.
    files: ['src-main/engine/text/**/*.ts', 'src-main/engine/checks/**/*.ts'],
    rules: {
      '@typescript-eslint/no-misused-spread': 'off',
      'no-control-regex': 'off',
    },
  },
  {
    files: ['src-renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: globals.browser },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  // Imports go one way: shared <- engine <- service <- (http, electron, cli); the renderer sees only shared.
  {
    files: ['src-shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            'node:*',
            'electron',
            '../src-main/*',
            '../../src-main/*',
            '**/src-renderer/**',
          ],
        },
      ],
    },
  },
  {
    files: ['src-main/engine/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            'electron',
            '**/service/**',
            '**/store/**',
            '**/http/**',
            '**/cli/**',
            '**/electron/**',
          ],
        },
      ],
    },
  },
  {
    files: ['src-main/service/**/*.ts', 'src-main/store/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: ['electron', '**/http/**', '**/cli/**', '**/electron/**'] },
      ],
    },
  },
  {
    files: ['src-renderer/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['node:*', 'electron', '**/src-main/**'] }],
    },
  },
  // The file-format module has one door: from outside src-main/files/, only files/index.ts.
  // typescript-eslint's copy of no-restricted-imports, so that it adds to the layer rules
  // above: a second `no-restricted-imports` for the same files would replace them.
  {
    files: ['**/*.{ts,tsx}'],
    ignores: ['src-main/files/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/files/*', '**/files/*/**', '!**/files/index.ts'],
              message: 'Import the file formats through src-main/files/index.ts, their one door.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.js'],
    ...tseslint.configs.disableTypeChecked,
  },
);
