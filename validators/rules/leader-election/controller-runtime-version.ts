import { CONTROLLER_RUNTIME, GO_MODULE_KIND, moduleVersion } from '../../go-module';
import { asRecord, asString } from '../../json';
import { IndexedObject, ObjectIndex, directoryOf } from '../../object-index';

/** The controller-runtime a manager is built with, as its Go module in the input pins it. */
export interface ControllerRuntimeVersion {
  /** As written in go.mod (`v0.24.1`). */
  readonly version: string;
  /** The go.mod's file. */
  readonly file: string;
  /**
   * The default leader-election lock of that release needs leases: `configmapsleases` from v0.7
   * (it takes a ConfigMap and a Lease), `leases` from v0.12 (controller-runtime#1773); before v0.7
   * the lock is a ConfigMap alone.
   */
  readonly defaultLockNeedsLeases: boolean;
}

/**
 * The controller-runtime version of the Go module a manifest belongs to: the go.mod in the
 * manifest's directory or the nearest above it (kubebuilder's `config/manager/manager.yaml` sits
 * below the project's go.mod), when it requires controller-runtime and the container runs the
 * module's own program: kubebuilder's placeholder image `controller`, or an image named as the
 * module's last path element (`keikoproj/iam-manager:latest` for github.com/keikoproj/iam-manager).
 * Undefined otherwise: a manifest of some other controller says nothing of its build.
 */
export function controllerRuntimeOf(
  index: ObjectIndex,
  owner: IndexedObject,
  image: string | undefined,
): ControllerRuntimeVersion | undefined {
  const file = owner.source.file;
  if (file === undefined || image === undefined) return undefined;
  const modules = index.derived(modulesByDirectory);
  if (modules.size === 0) return undefined;
  for (let directory = directoryOf(file); ; directory = directoryOf(directory)) {
    const module = modules.get(directory);
    if (module) return runsModuleProgram(module, image) ? versionOf(module) : undefined;
    if (directory === '') return undefined;
  }
}

function modulesByDirectory(index: ObjectIndex): ReadonlyMap<string, IndexedObject> {
  const byDirectory = new Map<string, IndexedObject>();
  for (const module of index.ofKind(GO_MODULE_KIND))
    if (module.source.file !== undefined) byDirectory.set(directoryOf(module.source.file), module);
  return byDirectory;
}

function runsModuleProgram(module: IndexedObject, image: string): boolean {
  const name = imageName(image);
  if (name === 'controller') return true;
  const elements = (asString(module.raw.module) ?? '').split('/');
  // A major version suffix (`github.com/org/tool/v2`) is not the program's name.
  const last =
    elements.length > 1 && /^v\d+$/.test(elements[elements.length - 1]!) ? elements.length - 2 : elements.length - 1;
  return elements[last] !== undefined && elements[last] !== '' && name === elements[last];
}

/** The last path element of an image reference, without tag or digest: `controller` for `controller:latest`. */
function imageName(image: string): string {
  const withoutDigest = image.split('@')[0] ?? '';
  const last = withoutDigest.slice(withoutDigest.lastIndexOf('/') + 1);
  return last.split(':')[0] ?? '';
}

function versionOf(module: IndexedObject): ControllerRuntimeVersion | undefined {
  const version = asString(asRecord(module.raw.requires)?.[CONTROLLER_RUNTIME]);
  const parsed = version === undefined ? undefined : moduleVersion(version);
  if (version === undefined || parsed === undefined || module.source.file === undefined) return undefined;
  return { version, file: module.source.file, defaultLockNeedsLeases: parsed.major > 0 || parsed.minor >= 7 };
}
