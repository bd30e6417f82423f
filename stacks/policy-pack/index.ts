import { PolicyPack } from '@pulumi/policy';
import { ballastStackPolicies } from './ballast-policies';

// The entry point Pulumi runs for `pulumi preview --policy-pack stacks/policy-pack`. Constructing
// the pack starts the policy gRPC server, so tests exercise ballast-policies.ts, never this file.
new PolicyPack('ballast', {
  description: 'The ballast rules for stateful workloads over the Kubernetes resources of a Pulumi stack.',
  // The target version comes from the pack's config, else BALLAST_KUBERNETES_VERSION (read by the options schema).
  policies: ballastStackPolicies(),
});
