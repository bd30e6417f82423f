import { ARCHITECTURE_SUFFIX } from './image-architecture';

/**
 * Kubernetes' own component images, with an architecture suffix or not (`k8s.gcr.io/kube-scheduler-amd64`),
 * and hyperkube, which runs any of them; the tag names the 1.x release (`v1.29.3`, `v1.10.4_coreos.0`).
 */
const COMPONENT_IMAGE = new RegExp(
  `(?:^|/)(kube-apiserver|kube-controller-manager|cloud-controller-manager|kube-scheduler|kube-proxy|hyperkube)${ARCHITECTURE_SUFFIX}:(v1\\.(\\d+)\\.[^\\s@]*)`,
);

/** A Kubernetes component image: which program, its tag, and the minor the tag names. */
export interface ComponentImage {
  readonly program: string;
  readonly tag: string;
  readonly minor: number;
}

/**
 * Where Kubernetes publishes its images, and the mirrors that keep its `google_containers` path
 * (`registry.aliyuncs.com/google_containers`).
 */
const KUBERNETES_REGISTRY = /(?:^|\/)(?:k8s\.gcr\.io|registry\.k8s\.io|google[_-]containers)\//;

/** The component image `image` names, or undefined for any other image. */
export function componentImage(image: string): ComponentImage | undefined {
  const match = COMPONENT_IMAGE.exec(image);
  if (!match) return undefined;
  const [, program = '', tag = '', minor = ''] = match;
  // Providers name their own cloud controller managers so, versioned as they choose
  // (`qingcloud/cloud-controller-manager:v1.4.22` is built on cloud-provider v0.21): only
  // Kubernetes' own image, or one named without a repository, carries its release in the tag.
  if (program === 'cloud-controller-manager' && image.includes('/') && !KUBERNETES_REGISTRY.test(image))
    return undefined;
  return { program, tag, minor: Number(minor) };
}
