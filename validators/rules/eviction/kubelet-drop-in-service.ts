/**
 * The [Service] directives of a kubelet unit drop-in, read defensively from the SystemdDropIn
 * object (see validators/systemd-drop-in.ts), and what kubeadm's own drop-in contributes.
 */
import { asArray, asRecord, asString, getRecord } from '../../json';
import { IndexedObject } from '../../object-index';

/** kubeadm's 10-kubeadm.conf runs `/usr/bin/kubelet` with these variables, in this order. */
export const KUBEADM_EXEC_START_VARIABLES = [
  'KUBELET_KUBECONFIG_ARGS',
  'KUBELET_CONFIG_ARGS',
  'KUBELET_KUBEADM_ARGS',
  'KUBELET_EXTRA_ARGS',
];
/**
 * Variables kubeadm's EnvironmentFile= lines set, with the files that set them: their values
 * override any Environment= of the same name.
 */
export const KUBEADM_ENVIRONMENT_FILE_VARIABLES: Readonly<
  Record<string, { readonly shown: string; readonly paths: readonly string[] }>
> = {
  KUBELET_KUBEADM_ARGS: { shown: '/var/lib/kubelet/kubeadm-flags.env', paths: ['/var/lib/kubelet/kubeadm-flags.env'] },
  KUBELET_EXTRA_ARGS: {
    shown: '/etc/default/kubelet (/etc/sysconfig/kubelet on RPM systems)',
    paths: ['/etc/default/kubelet', '/etc/sysconfig/kubelet'],
  },
};
/** kubeadm's drop-in file name: drop-ins are applied in file-name order across all directories. */
export const KUBEADM_DROP_IN_NAME = '10-kubeadm.conf';

export interface DropInEntry {
  readonly index: number;
  readonly path: string;
  readonly reset: boolean;
}
export interface DropInExecStart extends DropInEntry {
  readonly command: string;
}
export interface DropInEnvironment extends DropInEntry {
  readonly name: string;
  readonly value: string;
}

export interface KubeletDropInService {
  readonly fileName: string;
  readonly execStart: readonly DropInExecStart[];
  readonly environment: readonly DropInEnvironment[];
  /** True when the drop-in clears the EnvironmentFile= list (`EnvironmentFile=` alone). */
  readonly resetsEnvironmentFiles: boolean;
  /** The files its EnvironmentFile= lines read, after its last reset (without systemd's `-` prefix). */
  readonly environmentFiles: readonly string[];
}

export function readDropInService(object: IndexedObject): KubeletDropInService {
  const service = getRecord(object.raw, 'service');
  const execStart = asArray(service?.execStart).map((entry, index) => {
    const record = asRecord(entry);
    return {
      index,
      path: `service.execStart[${index}]`,
      reset: record?.reset === true,
      command: asString(record?.command) ?? '',
    };
  });
  const environment = asArray(service?.environment).map((entry, index) => {
    const record = asRecord(entry);
    return {
      index,
      path: `service.environment[${index}]`,
      reset: record?.reset === true,
      name: asString(record?.name) ?? '',
      value: asString(record?.value) ?? '',
    };
  });
  const fileEntries = asArray(service?.environmentFiles).map((entry) => asRecord(entry));
  const lastReset = fileEntries.map((entry) => entry?.reset === true).lastIndexOf(true);
  return {
    fileName: asString(getRecord(object.raw, 'metadata')?.name) ?? '',
    execStart,
    environment,
    resetsEnvironmentFiles: lastReset >= 0,
    environmentFiles: fileEntries.slice(lastReset + 1).flatMap((entry) => asString(entry?.path) ?? []),
  };
}

/** The commands left after the drop-in's last `ExecStart=` reset; undefined when the drop-in has no reset. */
export function execStartAfterReset(service: KubeletDropInService): readonly DropInExecStart[] | undefined {
  let lastReset = -1;
  service.execStart.forEach((entry, position) => {
    if (entry.reset) lastReset = position;
  });
  return lastReset < 0 ? undefined : service.execStart.slice(lastReset + 1);
}

/** True when a command line expands the variable (`$NAME` or `${NAME}`). */
export function referencesVariable(command: string, name: string): boolean {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`\\$(?:${escaped}(?![A-Za-z0-9_])|\\{${escaped}\\})`).test(command);
}
