/**
 * Import cycles and the layer rules of ../shared/DESIGN.md ("Layout"), checked by
 * `npm run lint:deps`. dependency-cruiser, not an ESLint import plugin: with
 * `tsPreCompilationDeps` it counts `import type` too, and a cycle through types still ties two
 * modules together.
 * @type {import('dependency-cruiser').IConfiguration}
 */
const layer = (name, from, allowed) => ({
  name,
  comment: `${from} may import only ${allowed.join(', ')} (DESIGN.md, Layout)`,
  severity: 'error',
  from: { path: `^${from}/` },
  to: {
    pathNot: [
      `^${from}/`,
      ...allowed.map((target) => (target.endsWith('$') ? `^${target}` : `^${target}/`)),
      '^node_modules/(@types/)?node/',
      '^(fs|path|os|crypto|child_process|worker_threads|util|url|stream|events|assert)$',
    ],
    dependencyTypesNot: ['core'],
  },
});

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'import cycles, type-only imports included',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    layer('validators-stand-alone', 'validators', ['node_modules/(js-yaml|yaml|zod|semver)']),
    layer('templates-import-nothing', 'templates', []),
    layer('cli-on-validators', 'cli', ['validators', 'node_modules/(commander|js-yaml|yaml|@types/sarif)']),
    layer('plugins-on-validators', 'plugins', ['validators', 'node_modules/cdk8s-cli', 'cdk8s-cli']),
    layer('constructs-on-cdk8s-and-validators', 'constructs', [
      'validators',
      'templates',
      'node_modules/(cdk8s|cdk8s-plus-[0-9]+|constructs)',
    ]),
    // The node side shares the pod side's typed eviction policy (DESIGN: "declared once"): the
    // framework-free construct modules that hold it, and nothing of cdk8s.
    layer('stacks-on-pulumi-templates-validators', 'stacks', [
      'validators',
      'templates',
      'node_modules/@pulumi',
      'constructs/(kubelet-eviction-policy|kubelet-eviction-node-files|eviction-threshold|prop-error)\\.ts$',
    ]),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    exclude: { path: '^(lib|dist|node_modules)/' },
  },
};
