/**
 * Hostile YAML: nested aliases that stand for 10^levels nodes in a few hundred bytes. js-yaml keeps
 * aliases as shared references, so parsing is cheap; anything that serializes the expanded value
 * (a message built with JSON.stringify or String) takes minutes and gigabytes.
 */
export function aliasBomb(levels: number, indent: string): string {
  const lines = [`${indent}- &a0 [x, x, x, x, x, x, x, x, x, x]`];
  for (let level = 1; level < levels; level++) {
    const previous = `*a${level - 1}`;
    lines.push(`${indent}- &a${level} [${Array(10).fill(previous).join(', ')}]`);
  }
  return lines.join('\n');
}

/** A KubeSchedulerConfiguration whose leaseDuration is the last level of an alias bomb. */
export function schedulerConfigurationBomb(levels = 9): string {
  return [
    'apiVersion: kubescheduler.config.k8s.io/v1',
    'kind: KubeSchedulerConfiguration',
    'bomb:',
    aliasBomb(levels, '  '),
    'leaderElection:',
    '  leaderElect: true',
    `  leaseDuration: *a${levels - 1}`,
    '',
  ].join('\n');
}

/** The same configuration as the value of a ConfigMap key, as kube-scheduler deployments mount it. */
export function configMapWithBomb(levels = 9): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'scheduler-config', namespace: 'kube-system' },
    data: { 'scheduler-config.yaml': schedulerConfigurationBomb(levels) },
  };
}
