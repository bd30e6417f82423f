/** ballast: typed cdk8s constructs and validators for stateful workloads on Kubernetes. */
export * from './constructs';
export * from './validators';
