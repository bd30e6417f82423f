import { Rule } from '../../rule';
import { deprecatedKubeletEvictionFlag } from './deprecated-kubelet-eviction-flag';
import { evictionDiskHardThresholdBelow5Percent } from './eviction-disk-hard-threshold-below-5-percent';
import { evictionGracePeriodInvalid } from './eviction-grace-period-invalid';
import { evictionHardDropsDefaultSignals } from './eviction-hard-drops-default-signals';
import { evictionMinimumReclaimInvalid } from './eviction-minimum-reclaim-invalid';
import { evictionSoftNotAboveHard } from './eviction-soft-not-above-hard';
import { evictionSoftThresholdWithoutGracePeriod } from './eviction-soft-threshold-without-grace-period';
import { evictionSoftWithoutMaxPodGracePeriod } from './eviction-soft-without-max-pod-grace-period';
import { evictionThresholdDisablesSignal } from './eviction-threshold-disables-signal';
import { evictionThresholdOutOfRange } from './eviction-threshold-out-of-range';
import { evictionUnknownSignal } from './eviction-unknown-signal';
import { kubeletDropInExecStartWithoutReset } from './kubelet-drop-in-exec-start-without-reset';
import { kubeletDropInFlagsIgnored } from './kubelet-drop-in-flags-ignored';
import { kubeletDropInSortsBeforeKubeadm } from './kubelet-drop-in-sorts-before-kubeadm';

export const EVICTION_RULES: readonly Rule[] = [
  evictionHardDropsDefaultSignals,
  evictionUnknownSignal,
  evictionSoftThresholdWithoutGracePeriod,
  evictionThresholdOutOfRange,
  evictionGracePeriodInvalid,
  evictionMinimumReclaimInvalid,
  evictionSoftNotAboveHard,
  evictionSoftWithoutMaxPodGracePeriod,
  evictionThresholdDisablesSignal,
  evictionDiskHardThresholdBelow5Percent,
  kubeletDropInExecStartWithoutReset,
  kubeletDropInFlagsIgnored,
  kubeletDropInSortsBeforeKubeadm,
  deprecatedKubeletEvictionFlag,
];
