/**
 * Two tiers, both run by `npm test`:
 * - unit: everything that runs in-process, fast (`npm run test:unit`);
 * - e2e: what runs other programs the way a user does: the packed package installed into a
 *   scratch app, `cdk8s synth` through the cdk8s-cli plugin, the Pulumi programs under mocks, and
 *   the node scripts in a scratch root, the GitHub Action's steps (`npm run test:e2e`).
 * @type {import('jest').Config}
 */
const shared = {
  testEnvironment: 'node',
  // tsconfig's isolatedModules makes ts-jest transpile only: type checking is done once by
  // `npm run typecheck`, not per test file (which would re-read the cdk8s-plus declarations each time).
  transform: { '^.+\\.ts$': 'ts-jest' },
};

const E2E = [
  '<rootDir>/test/consumer/',
  '<rootDir>/test/plugins/',
  '<rootDir>/test/stacks/',
  '<rootDir>/test/templates/',
  '<rootDir>/test/integrations/',
];

module.exports = {
  testTimeout: 120000,
  projects: [
    {
      ...shared,
      displayName: 'unit',
      roots: ['<rootDir>/test'],
      testMatch: ['**/*.test.ts'],
      testPathIgnorePatterns: ['/node_modules/', ...E2E],
    },
    { ...shared, displayName: 'e2e', roots: ['<rootDir>/test'], testMatch: E2E.map((dir) => `${dir}**/*.test.ts`) },
  ],
};
