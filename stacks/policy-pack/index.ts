import { PolicyPack } from '@pulumi/policy';
import { ballastStackPolicies } from './ballast-policies';

// The entry point Pulumi runs for `pulumi preview --policy-pack stacks/policy-pack`. Constructing
// the pack starts the policy gRPC server, so tests exercise ballast-policies.ts, never this file.
new PolicyPack('ballast', {
  description: 'The ballast rules for stateful workloads over the Kubernetes resources of a Pulumi stack.',
  policies: ballastStackPolicies({ kubernetesVersion: process.env.BALLAST_KUBERNETES_VERSION || undefined }),
});
