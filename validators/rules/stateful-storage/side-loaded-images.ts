import { asString } from '../../json';
import { IndexedObject, ObjectIndex, directoryOf } from '../../object-index';
import { podContainers } from '../../pod-templates';

/** A container that never pulls its image (`imagePullPolicy: Never`), and the workload it belongs to. */
export interface SideLoadedImage {
  readonly owner: IndexedObject;
  readonly container: string;
}

/**
 * Where the input runs images loaded into the nodes by hand (`kind load`, `minikube image load`,
 * Docker Desktop's image store): per workload, its first container that never pulls its image; per
 * directory, the workloads written there that have one. Manifests of one directory are applied to
 * one cluster, so siblings' side-loaded images say as much about that cluster as the workload's own,
 * when they are a habit of the directory (two workloads or more), not one manifest's leftover
 * (openimsdk/open-im-server: one of sixteen Deployments says Never, on a cluster of network disks).
 * Read from every pod template of the index (CRDs with a pod template included), once per run.
 */
interface SideLoadedImages {
  readonly byOwner: ReadonlyMap<IndexedObject, SideLoadedImage>;
  readonly byDirectory: ReadonlyMap<string, readonly SideLoadedImage[]>;
}

/** How many workloads of a directory must never pull their image before the directory counts as side-loaded. */
const DIRECTORY_HABIT = 2;

function sideLoadedImages(index: ObjectIndex): SideLoadedImages {
  const byOwner = new Map<IndexedObject, SideLoadedImage>();
  const byDirectory = new Map<string, SideLoadedImage[]>();
  for (const { owner, spec } of index.podTemplates()) {
    if (byOwner.has(owner)) continue;
    const container = neverPulledContainer(spec);
    if (container === undefined) continue;
    const found = { owner, container };
    byOwner.set(owner, found);
    const directory = directoryOf(owner.source.file);
    const siblings = byDirectory.get(directory);
    if (siblings) siblings.push(found);
    else byDirectory.set(directory, [found]);
  }
  return { byOwner, byDirectory };
}

function neverPulledContainer(spec: Record<string, unknown>): string | undefined {
  for (const { container } of podContainers(spec)) {
    if (asString(container.imagePullPolicy) === 'Never')
      return asString(container.name) ?? asString(container.image) ?? '';
  }
  return undefined;
}

/**
 * The side-loaded image that places a workload on a local cluster: one of its own containers,
 * else the first of the workloads written in the same directory, when two or more of them never
 * pull their image; undefined otherwise.
 */
export function sideLoadedImageOf(index: ObjectIndex, workload: IndexedObject): SideLoadedImage | undefined {
  const images = index.derived(sideLoadedImages);
  const own = images.byOwner.get(workload);
  if (own) return own;
  const siblings = images.byDirectory.get(directoryOf(workload.source.file)) ?? [];
  return siblings.length >= DIRECTORY_HABIT ? siblings[0] : undefined;
}
