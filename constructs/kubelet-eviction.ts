// The kubelet eviction surface: typed policy, node files for the node stack, cdk8s drop-ins construct.
export * from './eviction-threshold';
export * from './kubelet-eviction-policy';
export * from './kubelet-eviction-node-files';
export * from './kubelet-eviction-drop-ins';
export * from './node-files-output';
export type { EvictionSignal } from '../validators/rules/eviction/eviction-signals';
export { EVICTION_SIGNALS, defaultEvictionHard } from '../validators/rules/eviction/eviction-signals';
