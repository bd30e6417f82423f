import { BallastPropError } from '../../constructs/prop-error';
import { EvictionThresholdValue } from '../../constructs/eviction-threshold';
import { KubeletEvictionPolicy, SoftEvictionThreshold } from '../../constructs/kubelet-eviction-policy';
import { applyKubeletDropinsScript, kubeletEvictionNodeFiles } from '../../constructs/kubelet-eviction-node-files';

describe('KubeletEvictionPolicy types', () => {
  test('refuse ambiguous and out-of-range thresholds and soft thresholds without grace period at compile time', () => {
    // These lines are checked by `tsc --noEmit` (test/ is in tsconfig): each must be a type error.
    // @ts-expect-error a bare number: bytes or percent?
    const bare: EvictionThresholdValue = '5';
    // @ts-expect-error more than 100%
    const tooMuch: EvictionThresholdValue = '105%';
    // @ts-expect-error 0% silently disables the signal
    const disabled: EvictionThresholdValue = '0%';
    // @ts-expect-error a soft threshold needs its grace period
    const soft: SoftEvictionThreshold = { threshold: '10%' };
    const fine: EvictionThresholdValue[] = ['5%', '7.5%', '100Mi', '2Gi', '500k'];
    expect([bare, tooMuch, disabled, soft, fine]).toHaveLength(5);
  });
});

describe('KubeletEvictionPolicy', () => {
  test('keeps every default signal of the target version when one threshold changes', () => {
    expect(
      new KubeletEvictionPolicy({ kubernetesVersion: '1.27', hard: { 'nodefs.available': '5%' } }).flagSettings()
        .evictionHard,
    ).toEqual({
      'memory.available': '100Mi',
      'nodefs.available': '5%',
      'nodefs.inodesFree': '5%',
      'imagefs.available': '15%',
    });
    expect(
      Object.keys(new KubeletEvictionPolicy({ kubernetesVersion: '1.30' }).configurationSettings().evictionHard),
    ).toEqual(['memory.available', 'nodefs.available', 'nodefs.inodesFree', 'imagefs.available', 'imagefs.inodesFree']);
  });

  test('output does not depend on the order props were written in', () => {
    const a = new KubeletEvictionPolicy({
      kubernetesVersion: '1.30',
      hard: { 'pid.available': '10%', 'memory.available': '500Mi' },
    });
    const b = new KubeletEvictionPolicy({
      kubernetesVersion: '1.30',
      hard: { 'memory.available': '500Mi', 'pid.available': '10%' },
    });
    expect(JSON.stringify(a.configurationSettings())).toBe(JSON.stringify(b.configurationSettings()));
  });

  test('defaults evictionMaxPodGracePeriod to 60 s with soft thresholds, and writes none without', () => {
    const soft = new KubeletEvictionPolicy({
      kubernetesVersion: '1.27',
      soft: { 'memory.available': { threshold: '500Mi', gracePeriod: '1m' } },
    });
    expect(soft.configurationSettings()).toMatchObject({
      evictionMaxPodGracePeriod: 60,
      evictionSoftGracePeriod: { 'memory.available': '1m' },
    });
    expect(new KubeletEvictionPolicy({ kubernetesVersion: '1.27' }).configurationSettings()).not.toHaveProperty(
      'evictionMaxPodGracePeriod',
    );
  });

  test.each([
    ['a bare number (untyped input)', { hard: { 'memory.available': '5' } }, 'hard.memory.available'],
    ['more than 100%', { hard: { 'nodefs.available': '105%' } }, 'hard.nodefs.available'],
    ['0%, which disables the signal', { hard: { 'memory.available': '0%' } }, 'hard.memory.available'],
    ['an unknown signal', { hard: { 'nodefs.avaliable': '5%' } }, 'hard.nodefs.avaliable'],
    ['a disk threshold under 5%', { hard: { 'nodefs.available': '2%' } }, 'hard.nodefs.available'],
    [
      'a soft threshold without grace period (untyped input)',
      { soft: { 'memory.available': { threshold: '500Mi' } } },
      'soft.memory.available.gracePeriod',
    ],
    [
      'a soft threshold not above the hard one',
      { soft: { 'nodefs.available': { threshold: '10%', gracePeriod: '1m' } } },
      'soft.nodefs.available.threshold',
    ],
    [
      'max pod grace period 0 with soft thresholds',
      { soft: { 'memory.available': { threshold: '500Mi', gracePeriod: '1m' } }, maxPodGracePeriodSeconds: 0 },
      'maxPodGracePeriodSeconds',
    ],
    ['a max pod grace period no int32 holds (1e21)', { maxPodGracePeriodSeconds: 1e21 }, 'maxPodGracePeriodSeconds'],
    ['a minimum reclaim of 0%', { minimumReclaim: { 'nodefs.available': '0%' } }, 'minimumReclaim.nodefs.available'],
    ['merge-by-kubelet before 1.33', { defaults: 'merge-by-kubelet' }, 'defaults'],
  ])('refuses %s at construction, naming the prop', (_what, props, prop) => {
    const build = () => new KubeletEvictionPolicy({ kubernetesVersion: '1.30', ...(props as object) });
    expect(build).toThrow(BallastPropError);
    expect(build).toThrow(`invalid ${prop} `);
  });
});

describe('kubeletEvictionNodeFiles (for the node-config stack)', () => {
  test('delivers a --config-dir drop-in from 1.30 and a kubelet.service drop-in before', () => {
    const modern = kubeletEvictionNodeFiles(new KubeletEvictionPolicy({ kubernetesVersion: '1.31' }));
    expect(modern.map(({ path, mode }) => ({ path, mode }))).toEqual([
      { path: '/etc/kubernetes/kubelet.conf.d/50-ballast-eviction.conf', mode: 0o644 },
    ]);
    expect(modern[0]?.content).toContain('kind: KubeletConfiguration');
    const old = kubeletEvictionNodeFiles(new KubeletEvictionPolicy({ kubernetesVersion: '1.27' }));
    expect(old.map((file) => file.path)).toEqual(['/etc/systemd/system/kubelet.service.d/20-ballast-eviction.conf']);
    expect(() =>
      kubeletEvictionNodeFiles(new KubeletEvictionPolicy({ kubernetesVersion: '1.29' }), { delivery: 'config-dir' }),
    ).toThrow(BallastPropError);
  });

  test('hands out the apply script', () => {
    expect(applyKubeletDropinsScript()).toMatch(/^#!\/bin\/sh\n/);
  });
});

describe('KubeletEvictionPolicy props are checked together', () => {
  test('every bad threshold, grace period and reclaim is listed in one error', () => {
    let error: unknown;
    try {
      new KubeletEvictionPolicy({
        kubernetesVersion: '1.30',
        hard: { 'nodefs.available': '1%', 'memory.available': '0%' as never },
        soft: { 'nodefs.available': { threshold: '10%', gracePeriod: '0s' as never } },
        minimumReclaim: { 'nodefs.available': '-1Gi' as never },
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(BallastPropError);
    expect((error as BallastPropError).problems.map((p) => p.prop)).toEqual([
      'hard.nodefs.available',
      'hard.memory.available',
      'soft.nodefs.available.gracePeriod',
      'minimumReclaim.nodefs.available',
    ]);
  });
});
