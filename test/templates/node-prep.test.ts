import { SHELLCHECK_INSTALL, testWithBinary } from '../support/external-binary';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import {
  NODE_PREP_PREREQUISITES_ENV,
  nodePrepScriptPath,
  renderNodePrepPrerequisites,
} from '../../templates/node-prep';
import { NFS_CLIENT, RBD_CLIENT } from '../../validators/node-prerequisites';
import { scratchDir } from '../support/scratch-dir';

/**
 * Runs node-prep.sh for real with /bin/sh against a scratch root. PATH holds only stub package
 * managers (which log their arguments and "install" a package by creating the executable it
 * provides under ROOT) and the few utilities the script needs, so the host's own apt-get/dnf can
 * never run.
 */
const UTILITIES = ['sh', 'sed', 'head', 'tr', 'grep', 'cat', 'mkdir', 'mv', 'rm'];
const PROVIDES: Record<string, string> = {
  'nfs-common': '/sbin/mount.nfs',
  'nfs-utils': '/usr/sbin/mount.nfs',
  'nfs-client': '/sbin/mount.nfs',
  'ceph-common': '/usr/bin/rbd',
};

interface Scratch {
  dir: string;
  root: string;
  bin: string;
  log: string;
}

function scratch(osRelease: string | undefined, managers: readonly string[]): Scratch {
  const dir = scratchDir('ballast-node-prep');
  const root = path.join(dir, 'root');
  const bin = path.join(dir, 'bin');
  const log = path.join(dir, 'calls.log');
  fs.mkdirSync(path.join(root, 'etc'), { recursive: true });
  fs.mkdirSync(bin);
  if (osRelease !== undefined) fs.writeFileSync(path.join(root, 'etc', 'os-release'), osRelease);
  for (const utility of UTILITIES) {
    const found = ['/usr/bin', '/bin'].map((d) => path.join(d, utility)).find((p) => fs.existsSync(p));
    if (!found) throw new Error(`test needs ${utility}`);
    fs.symlinkSync(found, path.join(bin, utility));
  }
  const provides = Object.entries(PROVIDES)
    .map(
      ([pkg, file]) =>
        `${pkg}) mkdir -p "$ROOT${path.dirname(file)}"; printf '#!/bin/sh\\n' > "$ROOT${file}"; chmod +x "$ROOT${file}" ;;`,
    )
    .join('\n    ');
  const stub = `#!/bin/sh
echo "\${0##*/} $*" >> "${log}"
case " $* " in *" install "*) ;; *) exit 0 ;; esac
[ -z "\${STUB_INSTALL_FAILS:-}" ] || { echo "E: stub install failure" >&2; exit 100; }
[ -z "\${STUB_INSTALL_PROVIDES_NOTHING:-}" ] || exit 0
for arg in "$@"; do
  case "$arg" in
    ${provides}
  esac
done
`;
  for (const manager of managers) fs.writeFileSync(path.join(bin, manager), stub, { mode: 0o755 });
  // Nothing counts as installed unless the test says so.
  const query = `#!/bin/sh\necho "\${0##*/} $*" >> "${log}"\nfor p in \${STUB_INSTALLED:-}; do for a in "$@"; do [ "$a" = "$p" ] && { echo "install ok installed"; exit 0; }; done; done\nexit 1\n`;
  for (const tool of ['dpkg-query', 'rpm', 'chmod']) {
    if (tool === 'chmod')
      fs.symlinkSync(
        ['/usr/bin/chmod', '/bin/chmod'].find((p) => fs.existsSync(p))!,
        path.join(bin, tool),
      );
    else fs.writeFileSync(path.join(bin, tool), query, { mode: 0o755 });
  }
  return { dir, root, bin, log };
}

function run(s: Scratch, args: string[] = [], env: Record<string, string> = {}, prerequisites = [NFS_CLIENT]) {
  const result = spawnSync('/bin/sh', [nodePrepScriptPath(), ...args], {
    encoding: 'utf8',
    env: {
      PATH: s.bin,
      ROOT: s.root,
      [NODE_PREP_PREREQUISITES_ENV]: renderNodePrepPrerequisites(prerequisites),
      ...env,
    },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const calls = (s: Scratch) =>
  fs.existsSync(s.log)
    ? fs
        .readFileSync(s.log, 'utf8')
        .trim()
        .split('\n')
        .filter((l) => !/^(dpkg-query|rpm) /.test(l))
    : [];
const stateFile = (s: Scratch) => path.join(s.root, 'var', 'lib', 'ballast', 'node-prerequisites');

const UBUNTU = 'NAME="Ubuntu"\nID=ubuntu\nID_LIKE=debian\nVERSION_ID="24.04"\n';
const make = (osRelease: string | undefined, managers: readonly string[]) => scratch(osRelease, managers);

describe('node-prep.sh', () => {
  test('installs nfs-common on Ubuntu, verifies, records; a second run changes nothing and says so', () => {
    const s = make(UBUNTU, ['apt-get']);
    const first = run(s);
    expect(first.status).toBe(0);
    expect(calls(s)).toEqual(['apt-get update -q', 'apt-get install -y -q --no-install-recommends nfs-common']);
    expect(first.stdout).toContain('nfs-client: satisfied');
    expect(fs.readFileSync(stateFile(s), 'utf8')).toContain('\nnfs-client\n');
    const stateBefore = fs.statSync(stateFile(s));

    fs.rmSync(s.log);
    const second = run(s);
    expect(second.status).toBe(0);
    expect(calls(s)).toEqual([]);
    expect(second.stdout).toContain('nfs-client: already satisfied');
    expect(second.stdout).toContain('nothing to do');
    expect(fs.statSync(stateFile(s)).mtimeMs).toBe(stateBefore.mtimeMs);
    expect(fs.readdirSync(path.dirname(stateFile(s)))).toEqual(['node-prerequisites']);
  });

  test.each([
    ['Rocky Linux (dnf)', 'ID="rocky"\nID_LIKE="rhel centos fedora"\n', ['dnf', 'yum'], 'dnf install -y -q nfs-utils'],
    ['Amazon Linux 2 (yum only)', 'ID="amzn"\nID_LIKE="centos rhel fedora"\n', ['yum'], 'yum install -y -q nfs-utils'],
    ['AlmaLinux', 'ID="almalinux"\nID_LIKE="rhel centos fedora"\n', ['dnf'], 'dnf install -y -q nfs-utils'],
    [
      'openSUSE Leap',
      'ID="opensuse-leap"\nID_LIKE="suse opensuse"\n',
      ['zypper'],
      'zypper --non-interactive --quiet install --no-recommends nfs-client',
    ],
    [
      'SLES',
      'ID="sles"\nID_LIKE="suse"\n',
      ['zypper'],
      'zypper --non-interactive --quiet install --no-recommends nfs-client',
    ],
    ['Debian', 'ID=debian\n', ['apt-get'], 'apt-get install -y -q --no-install-recommends nfs-common'],
  ])('on %s installs the right package with the right tool', (_name, osRelease, managers, expected) => {
    const s = make(osRelease, managers);
    const result = run(s);
    expect(result.status).toBe(0);
    expect(calls(s)).toContain(expected);
    expect(calls(s).filter((call) => call.includes(' install '))).toEqual([expected]);
  });

  test('reads an os-release with CRLF line endings (edited on Windows) like any other', () => {
    const s = make(UBUNTU.replace(/\n/g, '\r\n'), ['apt-get']);
    const result = run(s);
    expect(result.stderr).not.toContain('unsupported operating system');
    expect(result.status).toBe(0);
    expect(calls(s)).toEqual(['apt-get update -q', 'apt-get install -y -q --no-install-recommends nfs-common']);
  });

  test('installs only what is missing: a satisfied prerequisite and an installed package are left alone', () => {
    const s = make(UBUNTU, ['apt-get']);
    fs.mkdirSync(path.join(s.root, 'usr', 'sbin'), { recursive: true });
    fs.writeFileSync(path.join(s.root, 'usr', 'sbin', 'mount.nfs'), '', { mode: 0o755 });
    const result = run(s, [], {}, [NFS_CLIENT, RBD_CLIENT]);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('nfs-client: already satisfied');
    expect(calls(s)).toEqual(['apt-get update -q', 'apt-get install -y -q --no-install-recommends ceph-common']);
    expect(fs.readFileSync(stateFile(s), 'utf8')).toContain('\nnfs-client\nrbd-client\n');
  });

  test.each([
    [
      'Flatcar',
      'ID=flatcar\nID_LIKE=coreos\n',
      /immutable operating system 'flatcar'.*Bake the prerequisites into the node image/,
    ],
    ['Fedora CoreOS', 'ID=fedora\nVARIANT_ID=coreos\n', /immutable \(ostree-based\) operating system/],
    ['Bottlerocket', 'ID=bottlerocket\n', /immutable operating system 'bottlerocket'/],
    ['Arch Linux', 'ID=arch\n', /unsupported operating system \(ID='arch', ID_LIKE=''\)/],
    ['no os-release', undefined, /cannot read .*os-release/],
  ])('refuses %s clearly (exit 2) and installs nothing', (_name, osRelease, message) => {
    const s = make(osRelease, ['apt-get', 'dnf', 'yum', 'zypper']);
    const result = run(s);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(calls(s)).toEqual([]);
    expect(fs.existsSync(stateFile(s))).toBe(false);
  });

  test('fails clearly (exit 3) when the package manager fails, leaving no state file and no temp file', () => {
    const s = make(UBUNTU, ['apt-get']);
    const result = run(s, [], { STUB_INSTALL_FAILS: '1' });
    expect(result.status).toBe(3);
    expect(result.stderr).toContain('nfs-client: installing nfs-common failed');
    expect(fs.existsSync(path.dirname(stateFile(s)))).toBe(false);
  });

  test('fails (exit 4) when the install succeeds but the verification does not', () => {
    const s = make(UBUNTU, ['apt-get']);
    const result = run(s, [], { STUB_INSTALL_PROVIDES_NOTHING: '1' });
    expect(result.status).toBe(4);
    expect(result.stderr).toContain('still not satisfied after installation');
  });

  test('fails (exit 4) when the package is installed but its helper is missing, without reinstalling', () => {
    const s = make(UBUNTU, ['apt-get']);
    const result = run(s, [], { STUB_INSTALLED: 'nfs-common' });
    expect(result.status).toBe(4);
    expect(calls(s)).toEqual([]);
  });

  test('verify mode only checks: exit 4 on an unprepared node, 0 on a prepared one, never installs', () => {
    const s = make('ID=flatcar\n', ['apt-get']);
    const unprepared = run(s, ['verify']);
    expect(unprepared.status).toBe(4);
    expect(unprepared.stdout).toContain('nfs-client: NOT satisfied');
    fs.mkdirSync(path.join(s.root, 'sbin'), { recursive: true });
    fs.writeFileSync(path.join(s.root, 'sbin', 'mount.nfs'), '', { mode: 0o755 });
    expect(run(s, ['verify']).status).toBe(0);
    expect(calls(s)).toEqual([]);
    expect(fs.existsSync(stateFile(s))).toBe(false);
  });

  test('refuses bad input (exit 64)', () => {
    const s = make(UBUNTU, ['apt-get']);
    expect(run(s, ['upgrade']).status).toBe(64);
    expect(run(s, [], { [NODE_PREP_PREREQUISITES_ENV]: '' }).stderr).toContain('BALLAST_PREREQUISITES is empty');
    expect(run(s, [], { [NODE_PREP_PREREQUISITES_ENV]: 'broken' }).status).toBe(64);
  });
});

describe('renderNodePrepPrerequisites', () => {
  test('renders the declarations in the format the script parses', () => {
    expect(renderNodePrepPrerequisites([NFS_CLIENT, RBD_CLIENT])).toBe(
      'nfs-client|nfs-common|nfs-utils|nfs-client|/sbin/mount.nfs /usr/sbin/mount.nfs\n' +
        'rbd-client|ceph-common|ceph-common|ceph-common|/usr/bin/rbd /bin/rbd',
    );
  });

  test('refuses values that would break the format or the shell', () => {
    expect(() => renderNodePrepPrerequisites([])).toThrow(/at least one/);
    expect(() =>
      renderNodePrepPrerequisites([{ ...NFS_CLIENT, packages: { ...NFS_CLIENT.packages, debian: ['nfs-common|x'] } }]),
    ).toThrow(/debian package/);
    expect(() => renderNodePrepPrerequisites([{ ...NFS_CLIENT, verifyExecutables: ['mount.nfs'] }])).toThrow(
      /verify executable/,
    );
    expect(() => renderNodePrepPrerequisites([{ ...NFS_CLIENT, name: 'NFS client' }])).toThrow(/name/);
  });
});

describe('shellcheck', () => {
  testWithBinary('shellcheck', SHELLCHECK_INSTALL)('passes on every templates/*.sh', () => {
    const dir = path.resolve(__dirname, '..', '..', 'templates');
    const scripts = fs
      .readdirSync(dir)
      .filter((file) => file.endsWith('.sh'))
      .map((file) => path.join(dir, file));
    expect(scripts.length).toBeGreaterThan(0);
    const result = spawnSync('shellcheck', ['--shell=sh', ...scripts], { encoding: 'utf8' });
    expect(result.stdout + result.stderr).toBe('');
    expect(result.status).toBe(0);
  });
});
