import { IndexedObject } from './object-index';

/**
 * Suppression is per object and per rule, by annotation, and the annotation's value is the
 * justification: `ballast.dev/suppress.<rule-id>: "PV is pre-provisioned by storage team, see OPS-12"`.
 * An empty value does not suppress (and the `invalid-suppression` rule reports it).
 */
export const SUPPRESSION_ANNOTATION_PREFIX = 'ballast.dev/suppress.';

export function suppressionAnnotation(ruleId: string): string {
  return `${SUPPRESSION_ANNOTATION_PREFIX}${ruleId}`;
}

/** The justification that suppresses `ruleId` on `object`, or undefined when it is not suppressed. */
export function suppressionJustification(object: IndexedObject, ruleId: string): string | undefined {
  const value = object.annotations[suppressionAnnotation(ruleId)];
  return value !== undefined && value.trim() !== '' ? value.trim() : undefined;
}
