import { embeddedYamlDocuments } from './embedded-yaml';
import { JsonRecord, asArray, asRecord, asString, getField, getRecord } from './json';
import type { IndexedObject, ObjectIndex } from './object-index';

/**
 * A StorageClass that a Helm release in the input installs: GitOps repositories install their
 * storage as a chart (an Argo CD Application, a Flux HelmRelease, a k3s HelmChart) and never hold
 * the StorageClass object itself, so its name, whether it is the default, and where its volumes
 * live come from the chart's values.
 */
export interface ReleasedStorageClass {
  readonly name: string;
  readonly isDefault: boolean;
  /** Every volume lives on one node's disk (a local-path volume): its pods all run on that node. */
  readonly nodeLocal: boolean;
  /** The provisioner the chart writes into the class (`rook-ceph.rbd.csi.ceph.com`). */
  readonly provisioner: string;
  /** The Application, HelmRelease or HelmChart that installs it. */
  readonly release: IndexedObject;
}

/** A release's values, as a reader of one value by its dotted key (`storageClass.name`). */
type ValueReader = (key: string) => unknown;

/** A StorageClass a chart installs, as its values decide. */
type ChartClass = Omit<ReleasedStorageClass, 'release'>;

/**
 * Storage charts whose StorageClasses the values describe, with the chart's own defaults:
 * - rancher/local-path-provisioner's `deploy/chart/local-path-provisioner` (values.yaml:
 *   `storageClass: {create: true, defaultClass: false, name: local-path}`);
 * - longhorn/charts' `longhorn`, whose StorageClass `longhorn` (driver.longhorn.io, attached block
 *   volumes) is always created and is the default unless `persistence.defaultClass` is false
 *   (values.yaml: `persistence: {defaultClass: true}`; templates/storageclass.yaml);
 * - rook's `rook-ceph-cluster`, a class per block pool and per filesystem whose `storageClass` is
 *   enabled (templates/cephblockpool.yaml, cephfilesystem.yaml: provisioner
 *   `<csiDriverNamePrefix or operatorNamespace>.rbd.csi.ceph.com` or `.cephfs.csi.ceph.com`); without `cephBlockPools` or
 *   `cephFileSystems` in the values, the chart's own (values.yaml): `ceph-block`, the default, and
 *   `ceph-filesystem`.
 */
const STORAGE_CHARTS: ReadonlyMap<string, (values: ValueReader) => ChartClass[]> = new Map([
  [
    'local-path-provisioner',
    (values: ValueReader): ChartClass[] =>
      isTrue(values('storageClass.create') ?? true)
        ? [
            {
              name: asString(values('storageClass.name')) ?? 'local-path',
              isDefault: isTrue(values('storageClass.defaultClass') ?? false),
              nodeLocal: true,
              provisioner: 'rancher.io/local-path',
            },
          ]
        : [],
  ],
  [
    'longhorn',
    (values: ValueReader): ChartClass[] => [
      {
        name: 'longhorn',
        isDefault: isTrue(values('persistence.defaultClass') ?? true),
        nodeLocal: false,
        provisioner: 'driver.longhorn.io',
      },
    ],
  ],
  ['rook-ceph-cluster', rookCephClusterClasses],
]);

/** The rook-ceph-cluster chart's default pools and filesystems (values.yaml), as their classes. */
const ROOK_DEFAULT_BLOCK_POOLS = [{ storageClass: { enabled: true, name: 'ceph-block', isDefault: true } }];
const ROOK_DEFAULT_FILESYSTEMS = [{ storageClass: { enabled: true, name: 'ceph-filesystem', isDefault: false } }];

function rookCephClusterClasses(values: ValueReader): ChartClass[] {
  const driverPrefix = asString(values('csiDriverNamePrefix')) ?? asString(values('operatorNamespace')) ?? 'rook-ceph';
  const classesOf = (list: unknown, fallback: readonly unknown[], driver: string): ChartClass[] =>
    (Array.isArray(list) ? list : fallback).flatMap((entry) => {
      const storageClass = getRecord(entry, 'storageClass');
      const name = asString(storageClass?.name);
      // The templates create a class only where `storageClass.enabled` is true.
      if (!isTrue(storageClass?.enabled) || name === undefined) return [];
      return [
        {
          name,
          isDefault: isTrue(storageClass?.isDefault),
          nodeLocal: false,
          provisioner: `${driverPrefix}.${driver}`,
        },
      ];
    });
  return [
    ...classesOf(values('cephBlockPools'), ROOK_DEFAULT_BLOCK_POOLS, 'rbd.csi.ceph.com'),
    ...classesOf(values('cephFileSystems'), ROOK_DEFAULT_FILESYSTEMS, 'cephfs.csi.ceph.com'),
  ];
}

/** Every StorageClass the input's Helm releases of known storage charts install. Computed once per index. */
export function releasedStorageClasses(index: ObjectIndex): readonly ReleasedStorageClass[] {
  return index.derived(collectReleasedStorageClasses);
}

function collectReleasedStorageClasses(index: ObjectIndex): readonly ReleasedStorageClass[] {
  const releases = [
    ...index.ofKind('Application').flatMap(argoCdReleases),
    ...index.ofKind('HelmRelease').flatMap(fluxReleases),
    ...index.ofKind('HelmChart').flatMap(k3sReleases),
  ];
  return releases.flatMap(({ release, chart, readValues }) => {
    const classes = STORAGE_CHARTS.get(chart);
    return classes ? classes(readValues()).map((installed) => ({ ...installed, release })) : [];
  });
}

/** One chart a release installs. */
interface ChartRelease {
  readonly release: IndexedObject;
  readonly chart: string;
  /**
   * The release's values, as a reader of one value by its dotted key (`storageClass.name`). Values
   * written as text are parsed here, so only for a chart of interest.
   */
  readonly readValues: () => (key: string) => unknown;
}

/**
 * An Argo CD Application's sources (`spec.source`, `spec.sources`): a chart from a Helm repository
 * (`chart`), or one from a Git path (`deploy/chart/local-path-provisioner`). Values come from
 * `helm.parameters` first, then `helm.valuesObject`, then `helm.values` (text), as Argo CD merges them.
 */
function argoCdReleases(application: IndexedObject): ChartRelease[] {
  if (!(asString(application.raw.apiVersion) ?? '').startsWith('argoproj.io/')) return [];
  const spec = getRecord(application.raw, 'spec');
  const sources = [asRecord(spec?.source), ...asArray(spec?.sources).map(asRecord)];
  return sources.flatMap((source) => {
    if (!source) return [];
    const chart = asString(source.chart) ?? lastPathSegment(asString(source.path));
    if (chart === undefined) return [];
    const helm = asRecord(source.helm);
    const parameters = new Map(
      asArray(helm?.parameters).flatMap((parameter) => {
        const name = asString(asRecord(parameter)?.name);
        return name === undefined ? [] : [[name, asRecord(parameter)?.value] as const];
      }),
    );
    const valuesObject = asRecord(helm?.valuesObject);
    const readValues = () => {
      const valuesText = yamlValues(helm?.values);
      return (key: string) => parameters.get(key) ?? valueAt(valuesObject, key) ?? valueAt(valuesText, key);
    };
    return [{ release: application, chart, readValues }];
  });
}

/** A Flux HelmRelease: `spec.chart.spec.chart` with `spec.values`. */
function fluxReleases(release: IndexedObject): ChartRelease[] {
  if (!(asString(release.raw.apiVersion) ?? '').startsWith('helm.toolkit.fluxcd.io/')) return [];
  const chart = asString(getRecord(release.raw, 'spec', 'chart', 'spec')?.chart);
  const values = getRecord(release.raw, 'spec', 'values');
  return chart === undefined ? [] : [{ release, chart, readValues: () => (key: string) => valueAt(values, key) }];
}

/** A k3s HelmChart: `spec.chart` with `spec.set` (dotted keys) over `spec.valuesContent` (text). */
function k3sReleases(release: IndexedObject): ChartRelease[] {
  if (!(asString(release.raw.apiVersion) ?? '').startsWith('helm.cattle.io/')) return [];
  const spec = getRecord(release.raw, 'spec');
  const chart = asString(spec?.chart);
  const set = asRecord(spec?.set);
  const readValues = () => {
    const valuesContent = yamlValues(spec?.valuesContent);
    return (key: string) => set?.[key] ?? valueAt(valuesContent, key);
  };
  return chart === undefined ? [] : [{ release, chart, readValues }];
}

function lastPathSegment(path: string | undefined): string | undefined {
  return path?.replace(/\/+$/, '').split('/').pop() || undefined;
}

/** Values written as YAML text (Argo CD `helm.values`, k3s `valuesContent`): the first mapping. */
function yamlValues(text: unknown): JsonRecord | undefined {
  return typeof text === 'string' ? embeddedYamlDocuments(text)[0] : undefined;
}

/** A value of the values by its dotted key (`storageClass.name`). */
function valueAt(values: JsonRecord | undefined, key: string): unknown {
  return getField(values, ...key.split('.'));
}

/** A Helm boolean as written in values or a `--set` string. */
function isTrue(value: unknown): boolean {
  return value === true || value === 'true';
}
