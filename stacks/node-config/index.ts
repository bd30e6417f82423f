import * as pulumi from '@pulumi/pulumi';
import { NodeConfigStackConfig, resolveNodeConfig } from './config';
import { NODE_PREP_STEP_PROVIDERS } from './extensions';
import { NodePrep } from './node-prep';

// `pulumi up` entry point: read the typed stack config, validate it all at once, deploy.
const config = new pulumi.Config('ballast-node-config');
const stackConfig: NodeConfigStackConfig = {
  namespace: config.get('namespace'),
  image: config.get('image'),
  nodeGroups: config.requireObject<NodeConfigStackConfig['nodeGroups']>('nodeGroups'),
};
const resolved = resolveNodeConfig(stackConfig, NODE_PREP_STEP_PROVIDERS);
for (const warning of resolved.warnings) void pulumi.log.warn(warning);
const nodePrep = new NodePrep('ballast', resolved);

export const daemonSets = Object.keys(nodePrep.daemonSets);
export const labelledNodes = Object.keys(nodePrep.nodePatches);
