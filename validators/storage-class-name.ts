import { JsonRecord, asString } from './json';

/** The annotation that named a class before `spec.storageClassName`, still read ahead of the field. */
export const BETA_STORAGE_CLASS_ANNOTATION = 'volume.beta.kubernetes.io/storage-class';

/**
 * The StorageClass a claim or PersistentVolume names, as the PV controller reads it
 * (GetPersistentVolumeClaimClass, GetPersistentVolumeClass): the beta annotation first, then
 * `spec.storageClassName`. `""` names no class; undefined when it names none (a claim then takes
 * the default class).
 */
export function storageClassNameOf(
  spec: JsonRecord | undefined,
  annotations: Readonly<Record<string, string>> | undefined,
): string | undefined {
  return annotations?.[BETA_STORAGE_CLASS_ANNOTATION] ?? asString(spec?.storageClassName);
}
