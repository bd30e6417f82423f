import { ALL_RULES, Finding, ValidationOptions, validateObjects } from '../../validators';

/** Validates plain objects (as if from one file) and returns every finding. */
export function findingsFor(objects: readonly unknown[], options: ValidationOptions = {}): readonly Finding[] {
  return validateObjects(
    objects.map((object) => ({ object })),
    options,
  ).findings;
}

/** The findings of one rule, as `{rule, name, path, severity}` rows that read well in `expect`. */
export function ruleHits(objects: readonly unknown[], ruleId: string, options: ValidationOptions = {}) {
  // An opt-in rule is switched on for the test of it, as a user switches it on.
  const optIn = ALL_RULES.some((rule) => rule.id === ruleId && rule.optIn === true);
  const enabled = optIn && !options.enabledRules ? { enabledRules: [ruleId] } : {};
  return findingsFor(objects, { ...enabled, ...options })
    .filter((finding) => finding.rule === ruleId)
    .map((finding) => ({
      kind: finding.object.kind,
      name: finding.object.name,
      path: finding.path,
      severity: finding.severity,
      suppressed: finding.suppressed,
    }));
}
