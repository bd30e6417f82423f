'use strict';
// The module cdk8s-cli loads for a `validations:` entry whose package is this directory
// (`./plugins/cdk8s` here, `./node_modules/ballast/plugins/cdk8s` in a project that installed
// ballast). cdk8s-cli requires plain JavaScript, so this file picks the implementation:
// - in a ballast source checkout the TypeScript is there: run it through ts-node (transpile only),
//   so `npm run synth` never validates with a stale or missing `lib/` build;
// - in the published package only the compiled `lib/` is shipped: load that.
const fs = require('fs');
const path = require('path');

const source = path.join(__dirname, 'ballast-validation.ts');
if (fs.existsSync(source)) {
  require('ts-node').register({ transpileOnly: true, project: path.join(__dirname, '..', '..', 'tsconfig.json') });
  module.exports = require(source);
} else {
  module.exports = require('../../lib/plugins/cdk8s/ballast-validation.js');
}
