/**
 * Builds Kubernetes-style field paths (`spec.template.spec.volumes[1].nfs`), the form the API
 * server uses in its own validation errors. Keys that are not plain identifiers (annotation and
 * label keys such as `ballast.dev/suppress.x`) are written in brackets:
 * `metadata.annotations[ballast.dev/suppress.x]`.
 */
export function fieldPath(...segments: Array<string | number>): string {
  let path = '';
  for (const segment of segments) {
    if (typeof segment === 'number') {
      path += `[${segment}]`;
    } else if (segment.includes('.') || segment.includes('/') || segment.includes('[')) {
      path += `[${segment}]`;
    } else if (segment !== '') {
      path += path === '' ? segment : `.${segment}`;
    }
  }
  return path;
}

/** Splits a field path back into keys and indices (for locating it in a YAML document). */
export function parseFieldPath(path: string): Array<string | number> {
  const segments: Array<string | number> = [];
  const pattern = /([^.[\]]+)|\[([^\]]+)\]/g;
  let match: RegExpExecArray | null;
  while ((match = pattern.exec(path)) !== null) {
    if (match[2] === undefined) segments.push(match[1] ?? '');
    else segments.push(/^\d+$/.test(match[2]) ? Number(match[2]) : match[2]);
  }
  return segments;
}
