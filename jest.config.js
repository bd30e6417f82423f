/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  // tsconfig's isolatedModules makes ts-jest transpile only: type checking is done once by
  // `npm run typecheck`, not per test file (which would re-read the cdk8s-plus declarations each time).
  transform: { '^.+\\.ts$': 'ts-jest' },
  testTimeout: 60000,
};
