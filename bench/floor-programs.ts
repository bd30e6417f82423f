import * as path from 'path';

const ROOT = path.resolve(__dirname, '..');

/**
 * What a floor program keeps of each parsed file:
 * - `nothing`: the parse-only pass, the denominator of every ratio;
 * - `documents`: every document until the end, as the rules that look across objects need today;
 * - `identities`: only each object's apiVersion, kind, namespace and name, the least any linter
 *   that finds duplicate objects and looks objects up by name must keep: the floor of a streaming
 *   design, whatever facts its rules would keep besides;
 * - `identities-two-threads`: the same, parsed by two worker threads (one file in two each),
 *   with the identities sent to the main thread as text: the floor of a streaming design that uses
 *   both cores.
 */
export type FloorKeeps = 'nothing' | 'documents' | 'identities' | 'identities-two-threads';

/**
 * A node program (for `node -e`) that walks the directories it is given, reads every YAML and JSON
 * file and parses it with js-yaml and lint's own schema, as lint does, and keeps `keeps`. It needs
 * the compiled schema (`npm run build`).
 */
export function floorProgram(keeps: FloorKeeps): string {
  const load = `const { loadAll } = require(${JSON.stringify(require.resolve('js-yaml'))});
const { KUBERNETES_YAML_SCHEMA: schema } = require(${JSON.stringify(path.join(ROOT, 'lib', 'validators', 'yaml-schema.js'))});
const parse = (file) => loadAll(require('fs').readFileSync(file, 'utf8'), undefined, { schema });`;
  // Files are parsed as the walk meets them, not listed first: a list of 26,000 paths built by
  // path.join holds 17 MB of string pieces, which would inflate the denominator.
  const walk = (each: string) => `const fs = require('fs'), path = require('path');
let fileNumber = 0;
const walk = (dir) => { for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
  const full = path.join(dir, e.name);
  if (e.isDirectory()) walk(full); else if (/\\.(ya?ml|json)$/.test(e.name)) { const file = full; ${each} fileNumber++; }
} };
const walkAll = (dirs) => { for (const dir of dirs) walk(dir); };`;
  // js-yaml's strings of 13 characters or more are slices that keep their file's text alive: an
  // identity kept as such would keep every file.
  const identities = `const own = (text) => (typeof text === 'string' ? (' ' + text).slice(1) : undefined);
const identity = (object) => { const metadata = object.metadata || {};
  return [own(object.apiVersion), own(object.kind), own(metadata.namespace), own(metadata.name)]; };
const identitiesOf = (documents) => documents.flatMap((document) => {
  if (!document || typeof document !== 'object') return [];
  const items = /List$/.test(document.kind) && Array.isArray(document.items) ? document.items : [document];
  return items.filter((item) => item && typeof item === 'object').map(identity);
});`;
  switch (keeps) {
    case 'nothing':
      return `${load}\n${walk('parse(file);')}\nwalkAll(process.argv.slice(1));`;
    case 'documents':
      return `${load}\nconst kept = [];\n${walk('kept.push(parse(file));')}\nwalkAll(process.argv.slice(1));`;
    case 'identities':
      return `${load}\n${identities}\nconst kept = [];\n${walk('kept.push(...identitiesOf(parse(file)));')}\nwalkAll(process.argv.slice(1));`;
    case 'identities-two-threads':
      return twoThreads(load, walk, identities);
  }
}

/**
 * Each worker walks the whole tree and parses every other file (the walk costs little beside the
 * parse), posting the identities of what it parsed, in batches.
 */
function twoThreads(load: string, walk: (each: string) => string, identities: string): string {
  // Identities cross threads as one string per batch: cloning thousands of small arrays would cost
  // the main thread more than the parse it was spared.
  const worker = `${load}\n${identities}
const { parentPort, workerData } = require('worker_threads');
let batch = [];
const post = () => { parentPort.postMessage(batch.map((identity) => identity.join('\\u0001')).join('\\u0000')); batch = []; };
${walk('if (fileNumber % 2 === workerData.share) { batch.push(...identitiesOf(parse(file))); if (batch.length >= 1000) post(); }')}
walkAll(workerData.dirs);
post();`;
  return `const { Worker } = require('worker_threads');
const kept = [];
for (const share of [0, 1]) {
  const worker = new Worker(${JSON.stringify(worker)}, { eval: true, workerData: { share, dirs: process.argv.slice(1) } });
  worker.on('message', (identities) => kept.push(identities));
  worker.on('error', (error) => { console.error(error); process.exitCode = 1; });
}`;
}
