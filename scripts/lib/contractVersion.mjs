// The version rules (openapi/DECISIONS.md, D-44; docs/decisions.md, D-70): `info.version` is
// semantic versioning of the contract; against the released baseline, a breaking change needs the
// next major version, a notable one at least the next minor, documentation at least the next
// patch, and no change no bump. The package has a version of its own: at least the contract's,
// one of the three versions that follow its previous release, and bumped at least as much as the
// contract it carries at each release of the contract.

/** @typedef {'major' | 'minor' | 'patch' | 'none'} Bump */

const RANK = /** @type {const} */ ({ none: 0, patch: 1, minor: 2, major: 3 });

/** `1.2.3` -> [1, 2, 3]; null for anything else (no pre-release or build parts). @param {unknown} text */
export function parseVersion(text) {
  const match = typeof text === 'string' ? /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$/.exec(text) : null;
  return match
    ? /** @type {[number, number, number]} */ ([Number(match[1]), Number(match[2]), Number(match[3])])
    : null;
}

/** The three versions that may follow a released one. @param {string} released */
export function nextVersions(released) {
  const v = parseVersion(released);
  if (!v) return null;
  const [major, minor, patch] = v;
  return { major: `${major + 1}.0.0`, minor: `${major}.${minor + 1}.0`, patch: `${major}.${minor}.${patch + 1}` };
}

/** Orders two versions of the form MAJOR.MINOR.PATCH: negative, zero or positive. @param {string} a @param {string} b */
export function compareVersions(a, b) {
  const x = parseVersion(a);
  const y = parseVersion(b);
  if (!x || !y) throw new TypeError('compareVersions takes two versions MAJOR.MINOR.PATCH');
  return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
}

/**
 * The bump from the released version to the working one: `none`, `major`, `minor`, `patch`, or
 * null when the working version is none of the three next versions (lower, skipped, not reset).
 * @param {string} released @param {string} working @returns {Bump | null}
 */
export function bumpBetween(released, working) {
  if (released === working) return 'none';
  const next = nextVersions(released);
  if (!next) return null;
  if (working === next.major) return 'major';
  if (working === next.minor) return 'minor';
  if (working === next.patch) return 'patch';
  return null;
}

/**
 * The verdict on the versions.
 * @param {object} input
 * @param {string | null} input.released the baseline's `info.version` (null: no baseline)
 * @param {unknown} input.working `info.version` of openapi/openapi.yaml
 * @param {unknown} input.packageVersion `version` of package.json
 * @param {string | null} [input.previousPackage] the package's release before this one (the newest
 *   CHANGELOG section of another version); null or absent: the released contract's version
 * @param {Bump} input.required the bump the changes need
 * @returns {{ ok: boolean, bump: Bump | null, problems: string[], notes: string[] }}
 */
export function judgeVersions({ released, working, packageVersion, previousPackage, required }) {
  /** @type {string[]} */
  const problems = [];
  /** @type {string[]} */
  const notes = [];
  const workingText = String(working).slice(0, 40);
  if (!parseVersion(working))
    problems.push(`info.version ${quoted(working)} of openapi/openapi.yaml is not a version MAJOR.MINOR.PATCH`);
  if (released === null) {
    problems.push(
      'no released contract (openapi/released/openapi.json): run `npm run release:contract` to record the first release',
    );
    return { ok: false, bump: null, problems, notes };
  }
  const bump = parseVersion(working) ? bumpBetween(released, workingText) : null;
  const next = nextVersions(released);
  const options = next ? `${next.major} (major), ${next.minor} (minor) or ${next.patch} (patch)` : 'a next version';
  const needed = next && required !== 'none' ? next[required] : null;
  if (parseVersion(working) && bump === null) {
    problems.push(`info.version ${workingText} does not follow the released ${released}: use ${options}`);
  } else if (bump !== null) {
    if (required === 'none' && bump !== 'none') {
      problems.push(
        `info.version is ${workingText} but the contract has not changed since ${released}: no change, no bump (set it back to ${released})`,
      );
    } else if (required !== 'none' && bump === 'none') {
      problems.push(
        `the contract changed since ${released} but info.version is still ${released}: ${describe(required)}; bump it to ${needed}${required === 'major' ? '' : ' or higher'} (openapi/openapi.yaml)`,
      );
    } else if (RANK[bump] < RANK[required]) {
      problems.push(`info.version ${workingText} is a ${bump} bump, but ${describe(required)}: use ${needed}`);
    } else if (bump !== 'none') {
      notes.push(
        `${workingText} is not released yet: run \`npm run release:contract\` to record it as the baseline and add its CHANGELOG section`,
      );
    }
  }
  const contractBump = bump !== null && RANK[bump] >= RANK[required] ? bump : null;
  problems.push(
    ...packageProblems({
      packageVersion,
      working: parseVersion(working) ? workingText : null,
      previous: previousPackage ?? released,
      contractBump,
    }),
  );
  return { ok: problems.length === 0, bump, problems, notes };
}

/**
 * The package's version against the contract's and against the package's previous release (D-70).
 * @param {object} input
 * @param {unknown} input.packageVersion
 * @param {string | null} input.working the contract's version (null: not a version)
 * @param {string} input.previous the package's release before this one
 * @param {Bump | null} input.contractBump the contract's bump since its release (null: not judged)
 * @returns {string[]}
 */
function packageProblems({ packageVersion, working, previous, contractBump }) {
  if (!parseVersion(packageVersion))
    return [`package.json has version ${quoted(packageVersion)}, not a version MAJOR.MINOR.PATCH`];
  const pkg = String(packageVersion);
  if (working !== null && compareVersions(pkg, working) < 0)
    return [
      `package.json has version ${pkg}, lower than the contract's ${working} (openapi/openapi.yaml): the package's version is at least the contract's`,
    ];
  if (!parseVersion(previous)) return [];
  const packageBump = bumpBetween(previous, pkg);
  const next = nextVersions(previous);
  if (packageBump === null)
    return [
      `package.json has version ${pkg}, which does not follow the package's release ${previous}: use ${next?.major} (major), ${next?.minor} (minor) or ${next?.patch} (patch)`,
    ];
  if (contractBump !== null && contractBump !== 'none' && RANK[packageBump] < RANK[contractBump]) {
    const use = next?.[contractBump];
    return [
      `the contract takes a ${contractBump} bump but package.json's ${pkg} is ${packageBump === 'none' ? 'not bumped' : `a ${packageBump} bump`} since the package's release ${previous}: the package is bumped at least as much as the contract it carries; use ${use}${contractBump === 'major' ? '' : ' or higher'}`,
    ];
  }
  return [];
}

/** A value quoted for a message, cut short. @param {unknown} v */
function quoted(v) {
  return (JSON.stringify(v) ?? String(v)).slice(0, 40);
}

/** @param {Bump} required */
function describe(required) {
  if (required === 'major') return 'a breaking change needs a major version';
  if (required === 'minor') return 'a notable change needs at least a minor version';
  return 'a documentation change needs at least a patch version';
}
