import * as pulumi from '@pulumi/pulumi';
import { NodeConfigStackConfig, resolveNodeConfig } from '../../stacks/node-config/config';
import { NodePrepStepProvider } from '../../stacks/node-config/extensions';

/** A resource as the mock monitor saw it: `dependencies` holds the URNs of its dependsOn. */
export interface RegisteredResource {
  type: string;
  name: string;
  inputs: Record<string, any>;
  dependencies: string[];
}

const registered: RegisteredResource[] = [];

/**
 * Installs pulumi.runtime.setMocks (no Pulumi CLI, no cluster) and wraps the mock monitor so each
 * registration is recorded with its dependencies: the mocks' newResource sees inputs only, and
 * the tests must assert that node labels wait for their DaemonSet. Call in `beforeAll`.
 */
export async function setRecordingPulumiMocks(): Promise<void> {
  await pulumi.runtime.setMocks(
    {
      newResource: (args) => ({ id: `${args.name}-id`, state: args.inputs }),
      call: (args) => args.inputs,
    },
    'ballast-node-config',
    'test',
    false,
  );
  const monitor = pulumi.runtime.getMonitor() as any;
  const register = monitor.registerResource.bind(monitor);
  monitor.registerResource = (request: any, callback: any) => {
    const pending = {
      type: request.getType(),
      name: request.getName(),
      dependencies: request.getDependenciesList() as string[],
    };
    return register(request, (error: unknown, response: any) => {
      if (!error) registered.push({ ...pending, inputs: response.getObject().toJavaScript() });
      callback(error, response);
    });
  };
}

/** Runs the node-config stack's NodePrep under the mocks; returns what it registered. */
export async function deployNodePrep(
  stackConfig: NodeConfigStackConfig,
  providers: ReadonlyArray<NodePrepStepProvider<unknown>> = [],
) {
  registered.length = 0;
  // Imported here so the module loads after setMocks.
  const { NodePrep } = await import('../../stacks/node-config/node-prep');
  const nodePrep = new NodePrep('ballast', resolveNodeConfig(stackConfig, providers));
  await new Promise<void>((resolve) => nodePrep.urn.apply(() => resolve()));
  // Let every registration finish.
  await new Promise((resolve) => setTimeout(resolve, 100));
  return { resources: [...registered], nodePrep };
}
