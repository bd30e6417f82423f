// The leader-election surface: Lease-based locks for workloads and the control plane's settings.
export * from './leader-election-timings';
export * from './leader-lease';
export * from './control-plane-leader-election';
