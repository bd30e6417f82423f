/**
 * What to do when a node dies holding a single-node volume (incident 2). Shared by every
 * message about Multi-Attach so all of them tell the same, real procedure.
 */
export const NODE_LOSS_RECOVERY =
  'If a node dies with the volume attached (Multi-Attach error), make sure the node is really ' +
  'off, then taint it: `kubectl taint nodes <node> node.kubernetes.io/out-of-service=nodeshutdown:NoExecute` ' +
  '(non-graceful node shutdown, GA in 1.28): its pods are force-deleted and the volume detached, so the ' +
  'replacement pod can attach it. Remove the taint after the node is back.';
