// ESLint flat config: typescript-eslint with type information over every TypeScript file.
// Import cycles (type-only imports included) and the layer rules of DESIGN.md are checked by
// dependency-cruiser (`npm run lint:deps`, .dependency-cruiser.js): ESLint's import plugins skip
// `import type`, and a cycle through types still couples two modules.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['lib/', 'dist/', 'coverage/', 'node_modules/', '.bench/', '**/*.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['*.js', '*.mjs', 'plugins/cdk8s/index.js'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // Rules read user YAML of unknown shape through typed helpers; `unknown` is the norm, and
      // the remaining `any` comes from test fixtures and third-party typings.
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      // KubeVersion prints as MAJOR.MINOR by design.
      '@typescript-eslint/restrict-template-expressions': [
        'error',
        {
          allowNumber: true,
          allowBoolean: true,
          allowNullish: true,
          allow: [{ from: 'file', name: 'KubeVersion', path: 'validators/kube-version.ts' }],
        },
      ],
      // It misjudges element access under noUncheckedIndexedAccess (it removed assertions tsc needs).
      '@typescript-eslint/no-unnecessary-type-assertion': 'off',
      eqeqeq: ['error', 'always'],
      'no-console': 'off',
    },
  },
  {
    // Tests read synthesized YAML and Pulumi mocks' untyped inputs.
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: {
      globals: {
        require: 'readonly',
        module: 'writable',
        __dirname: 'readonly',
        process: 'readonly',
        console: 'readonly',
      },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
